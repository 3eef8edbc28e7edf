import { givenAnswerOf, ModelCallError, type GenerateRequest, type GenerateResult } from '../../../core/index.js';
import type { GenerateOptions, ModelProvider } from '../../spec.js';

/**
 * `given:answers` — the answers a task's own data already holds (a groundedness file with an
 * `answer` column): each call returns the answer the sample carries in its hints, so those answers
 * are graded like any model's. No network, no cost, not cached (the data is the source). A sample
 * without a given answer fails with `unsupported`.
 */
export function createGivenProvider(name: string): ModelProvider {
  const id = `given:${name}`;
  return {
    specVersion: 'v1',
    id,
    cacheable: false,
    billed: false,
    async generate(request: GenerateRequest, options: GenerateOptions): Promise<GenerateResult> {
      if (options.signal.aborted) throw new ModelCallError('aborted', `${id}: call aborted before it started`);
      const text = givenAnswerOf(request.hints);
      if (text === undefined) throw new ModelCallError('unsupported', `${id}: this sample has no given answer (the task's data holds none; use a model to answer)`);
      return { text, toolCalls: [], finishReason: { unified: 'stop' }, usage: {}, warnings: [] };
    },
  };
}
