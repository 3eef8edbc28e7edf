import { ModelCallError, type GenerateRequest, type GenerateResult } from '../../../core/index.js';
import type { GenerateOptions, ModelProvider } from '../../spec.js';
import { loadReplayFile } from './load.js';

export interface ReplayProviderOptions {
  /** The replay file (JSON Lines), as the user wrote it; relative paths resolve against the working directory. */
  readonly path: string;
  /**
   * Fallback for finding a request's sample id when the caller does not pass `sampleId` in the
   * generate options (e.g. library users calling the provider directly).
   */
  readonly sampleIdOf?: (request: GenerateRequest) => string | undefined;
}

export interface ReplayProvider extends ModelProvider {
  /** The sample ids the file has outputs for, in file order. */
  readonly sampleIds: readonly string[];
}

/**
 * `replay:<file.jsonl>`: answers each sample with the output recorded for it, so that outputs
 * produced elsewhere (another tool, a past run, a hand-written file) can be scored like a live
 * model. The file is read and validated when the provider is created (an `InputError` naming
 * `file:line` for a bad line). A sample the file has no line for fails with `missing-output`,
 * an error for that sample only. Not cacheable: the file is the cache.
 */
export function createReplayProvider(options: ReplayProviderOptions): ReplayProvider {
  const { path, sampleIdOf } = options;
  const outputs = loadReplayFile(path);
  const id = `replay:${path}`;
  return {
    specVersion: 'v1',
    id,
    cacheable: false,
    billed: false,
    sampleIds: [...outputs.keys()],
    async generate(request: GenerateRequest, callOptions: GenerateOptions): Promise<GenerateResult> {
      if (callOptions.signal.aborted) throw new ModelCallError('aborted', `${id}: call aborted before it started`);
      const sampleId = callOptions.sampleId ?? sampleIdOf?.(request);
      if (sampleId === undefined) throw new ModelCallError('unsupported', `${id} needs the sample id of each request, and none was given`);
      const result = outputs.get(sampleId);
      if (!result) throw new ModelCallError('missing-output', `replay file ${path} has no output for sample ${sampleId}`);
      return result;
    },
  };
}
