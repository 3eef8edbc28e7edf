import {
  InputError,
  ModelCallError,
  canonicalJson,
  rngFor,
  sha256,
  type GenerateRequest,
  type GenerateResult,
  type ReferenceHints,
} from '../../../core/index.js';
import type { GenerateOptions, ModelProvider } from '../../spec.js';
import { lexicalSelect, lexicalYesNo, type LexicalAnswer } from './lexical.js';
import { randomSelect, randomYesNo } from './random.js';

export const BASELINE_NAMES = ['random', 'lexical'] as const;
export type BaselineName = (typeof BASELINE_NAMES)[number];

export interface BaselineProviderOptions {
  readonly name: BaselineName;
  /** The run's seed; the random baseline's choices are derived from it and the question. */
  readonly seed: number | string;
}

/** sha256 of the hints in canonical JSON: names the question independently of call order. */
export const hintsHash = (hints: ReferenceHints): string => sha256(canonicalJson(hints));

/** The questions a baseline answers: yes/no and tool selection (not a task's given answers). */
type BaselineQuestion = Exclude<ReferenceHints, { kind: 'given' }>;

function answer(name: BaselineName, hints: BaselineQuestion, seed: number | string): LexicalAnswer {
  if (name === 'lexical') return hints.kind === 'yes-no' ? lexicalYesNo(hints.query) : lexicalSelect(hints);
  // One generator per question, labelled by its content: the same question gets the same answer
  // whatever the order, concurrency or resumption of the run.
  const rng = rngFor(seed, `baseline:${name}:${hintsHash(hints)}`);
  if (hints.kind === 'yes-no') return { text: randomYesNo(rng), detail: {} };
  const chosen = randomSelect(hints, rng);
  return { text: chosen.length === 0 ? 'None' : chosen.join(', '), detail: {} };
}

/**
 * `baseline:random` and `baseline:lexical`: reference points shown beside real models. They read
 * only `request.hints` (the structured question), never the prompt, and are deterministic for a
 * given seed. `random` answers uniformly among the allowed answers; `lexical` ranks candidates by
 * BM25 and answers yes/no from a fixed cue-word list (see `lexical.ts`). Neither is a model.
 */
export function createBaselineProvider(options: BaselineProviderOptions): ModelProvider {
  const { name, seed } = options;
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
      if (!hints || hints.kind === 'given') {
        throw new ModelCallError(
          'unsupported',
          `${id} needs a task with structured hints (yes/no or tool-selection questions, e.g. the MetaTool tasks); this request has none`,
        );
      }
      const { text, detail } = answer(name, hints, seed);
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
