import type { LlamaEmbeddingContext, LlamaModel } from 'node-llama-cpp';
import { ModelCallError, describeError } from '../../../core/index.js';
import { sharedLlama } from './llama-engine.js';
import { engineSettingsFrom, type LocalProviderOptions } from './local-provider.js';
import { parseLocalModelRef } from './model-ref.js';
import { resolveModelFile } from './resolve-model-file.js';

/** Text embeddings from a local GGUF model (e.g. for MetaTool-style candidate lists on a user's own tools). */
export interface LocalEmbedder {
  readonly id: string;
  /** One vector per text, in order (the model's pooling; plain arrays so they can be stored as JSON). */
  embed(texts: readonly string[]): Promise<number[][]>;
  close(): Promise<void>;
}

/**
 * `local:<file.gguf>` as an embedder. The file is resolved like the chat provider's (paths,
 * `local:hf:` downloads); the model is loaded on the first `embed`, with the same thread default.
 * Texts are embedded one after another: an embedding context evaluates one text at a time.
 */
export async function createLocalEmbedder(options: Pick<LocalProviderOptions, 'model' | 'threads' | 'gpu' | 'contextSize' | 'download'>): Promise<LocalEmbedder> {
  const ref = parseLocalModelRef(options.model);
  const settings = engineSettingsFrom({ ...options, sequences: 1 });
  const { path: modelPath } = await resolveModelFile(ref, options.download ?? {});
  let loaded: Promise<{ model: LlamaModel; context: LlamaEmbeddingContext }> | undefined;
  const load = async (): Promise<{ model: LlamaModel; context: LlamaEmbeddingContext }> => {
    const llama = await sharedLlama(settings.gpu, settings.gpu === false ? (settings.threads ?? 1) : settings.threads);
    const model = await llama.loadModel({ modelPath });
    const threads = settings.threads ?? (llama.gpu === false ? 1 : llama.maxThreads);
    const context = await model.createEmbeddingContext({ threads, ...(settings.contextSize ? { contextSize: settings.contextSize } : {}) });
    return { model, context };
  };
  return {
    id: `local:${options.model}`,
    async embed(texts) {
      loaded ??= load();
      let context: LlamaEmbeddingContext;
      try {
        ({ context } = await loaded);
      } catch (error) {
        loaded = undefined;
        throw new ModelCallError('bad-request', `cannot load ${modelPath} as an embedding model: ${describeError(error)}`);
      }
      const vectors: number[][] = [];
      for (const text of texts) {
        try {
          vectors.push([...(await context.getEmbeddingFor(text)).vector]);
        } catch (error) {
          throw new ModelCallError('bad-request', `local:${options.model}: embedding failed: ${describeError(error)}`);
        }
      }
      return vectors;
    },
    async close() {
      const current = loaded;
      loaded = undefined;
      const done = await current?.catch(() => undefined);
      if (!done) return;
      await done.context.dispose();
      await done.model.dispose();
    },
  };
}
