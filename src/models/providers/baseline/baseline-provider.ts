import {
  InputError,
  ModelCallError,
  canonicalJson,
  referenceAnswererFor,
  rngFor,
  sha256,
  type GenerateRequest,
  type GenerateResult,
  type ReferenceAnswerers,
  type ReferenceHints,
} from '../../../core/index.js';
import type { GenerateOptions, ModelProvider } from '../../spec.js';

/** The baseline strategies a `baseline:` id may name; what each answers is the task's (`ReferenceAnswerers`). */
export const BASELINE_NAMES = ['random', 'lexical'] as const;
export type BaselineName = (typeof BASELINE_NAMES)[number];

export interface BaselineProviderOptions {
  readonly name: BaselineName;
  /** The run's seed; a random answer is drawn from it and the question. */
  readonly seed: number | string;
  /** The task's reference answerers (`Task.baselines`), by hints kind and strategy; none: every call is refused. */
  readonly answerers?: ReferenceAnswerers;
}

/** sha256 of the hints in canonical JSON: names the question independently of call order. */
export const hintsHash = (hints: ReferenceHints): string => sha256(canonicalJson(hints));

/**
 * `baseline:random` and `baseline:lexical`: reference points shown beside real models. They read
 * only `request.hints` (the structured question), never the prompt, and answer with the answerer
 * the task declares for the question's kind and this strategy (MetaTool's: uniformly among the
 * allowed answers; BM25 and cue words). Deterministic for a given seed: a random answerer draws
 * from a generator labelled by the strategy and the question's content. Neither is a model.
 */
export function createBaselineProvider(options: BaselineProviderOptions): ModelProvider {
  const { name, seed, answerers = {} } = options;
  if (!(BASELINE_NAMES as readonly string[]).includes(name)) {
    throw new InputError(`unknown baseline "${String(name)}"; known baselines: ${BASELINE_NAMES.join(', ')}`);
  }
  const id = `baseline:${name}`;
  return {
    specVersion: 'v1',
    id,
    cacheable: false,
    billed: false,
    async generate(request: GenerateRequest, callOptions: GenerateOptions): Promise<GenerateResult> {
      if (callOptions.signal.aborted) throw new ModelCallError('aborted', `${id}: call aborted before it started`);
      const hints = request.hints;
      const answerer = hints ? referenceAnswererFor(answerers, hints.kind, name) : undefined;
      if (!hints || !answerer) {
        // The runner refuses a run whose task has nothing for a baseline to answer (naming what
        // baselines do answer) before anything is recorded; this is for any other caller.
        const kinds = Object.keys(answerers).filter((kind) => referenceAnswererFor(answerers, kind, name) !== undefined);
        throw new ModelCallError(
          'unsupported',
          `${id} needs a task with structured hints it has an answerer for (${kinds.length > 0 ? `the task's: ${kinds.join(', ')}` : 'the task declares none'}); this request has ${hints ? `"${hints.kind}" hints` : 'none'}`,
        );
      }
      const { text, detail } = answerer({ hints, rng: () => rngFor(seed, `${id}:${hintsHash(hints)}`) });
      return {
        text,
        toolCalls: [],
        finishReason: { unified: 'stop' },
        usage: {},
        warnings: [],
        rawResponse: { baseline: name, answer: text, ...detail },
      };
    },
  };
}
