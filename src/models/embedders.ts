import { InputError, parseModelId } from '../core/index.js';

/** An embedding model: texts → one vector each (structurally the tasks' `TextEmbedder`). */
export interface Embedder {
  readonly id: string;
  embed(texts: readonly string[]): Promise<number[][]>;
  close(): Promise<void>;
}

/**
 * Builds an embedding model from its id. Only `local:<file.gguf>` (and `local:hf:…`) embeds
 * today; node-llama-cpp is imported only here, when such an id is used.
 * @throws InputError for a malformed id or a provider without embeddings.
 */
export async function createEmbedder(id: string): Promise<Embedder> {
  const { provider, model } = parseModelId(id);
  if (provider !== 'local') throw new InputError(`embedder "${id}": only local:<file.gguf> embedding models are supported (or "lexical", BM25 between descriptions)`);
  const { createLocalEmbedder } = await import('./providers/local/local-embedder.js');
  return createLocalEmbedder({ model });
}
