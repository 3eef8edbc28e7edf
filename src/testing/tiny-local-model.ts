import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { createLocalProvider } from '../models/providers/local/local-provider.js';
import type { ModelProvider } from '../models/spec.js';
import { tempTinyGguf, type TinyGgufFile } from './tiny-gguf.js';

/** What an e2e test on the tiny generated GGUF uses: a temp folder, the model's `local:` id and its loaded provider. */
export interface TinyLocalModel {
  readonly dir: string;
  readonly id: string;
  readonly provider: ModelProvider;
}

/**
 * Registers the test file's `before`/`after` hooks that write the tiny random-weight GGUF, load it
 * once through node-llama-cpp (in-process) and make a temp folder; everything is removed after.
 * The returned getter is valid inside tests.
 */
export function useTinyLocalModel(folderPrefix: string, contextLength: number): () => TinyLocalModel {
  let state: (TinyLocalModel & { readonly tiny: TinyGgufFile & { dispose(): Promise<void> } }) | undefined;
  before(async () => {
    const dir = mkdtempSync(join(tmpdir(), folderPrefix));
    const tiny = await tempTinyGguf({ contextLength });
    state = { dir, tiny, id: `local:${tiny.path}`, provider: await createLocalProvider({ model: tiny.path, contextSize: contextLength }) };
  });
  after(async () => {
    if (!state) return;
    await state.provider.close?.();
    await state.tiny.dispose();
    rmSync(state.dir, { recursive: true, force: true });
  });
  return () => {
    if (!state) throw new Error('the tiny local model is set up in before(): use it inside a test');
    return state;
  };
}
