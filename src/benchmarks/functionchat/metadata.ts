import type { SampleFacts } from '../../core/index.js';
import type { AcceptableArguments, GroundTruth, OutputType } from '../../datasets/functionchat/index.js';

export type FunctionChatTaskName = 'singlecall' | 'dialog' | 'calldecision';

/** Metadata of a FunctionChat sample; field names follow the data files. */
// A type alias, not an interface: only those are assignable to `Sample.metadata` (a Record).
export type FunctionChatMeta = {
  readonly task: FunctionChatTaskName;
  readonly bench_version: string;
  readonly type_of_output: OutputType;
  readonly serial_num: number;
  /** singlecall: the tool list (`exact`, `4_random`, `4_close`, `8_random`, `8_close`). */
  readonly tools_type?: string;
  readonly function_num?: number;
  readonly function_name?: string;
  /** dialog */
  readonly dialog_num?: number;
  readonly turn_num?: number;
  /** calldecision: `CALL`, `REJECT`, `SLOT-all`, `SLOT-some`. */
  readonly category?: string;
};

/** What a FunctionChat sample is graded against. */
export type FunctionChatTarget = {
  readonly groundTruth: GroundTruth;
  readonly acceptable: AcceptableArguments;
  /** `acceptable_arguments` in upstream's request form (shown to the judge). */
  readonly acceptableText: string | null;
};

const OUTPUT_TYPES: readonly unknown[] = ['call', 'completion', 'slot', 'relevance'];

function notOurs(sample: SampleFacts, what: string): never {
  throw new Error(`sample ${sample.id}: ${what} is not FunctionChat ${what}`);
}

/** The sample's metadata (checked, since samples may come back from a store). */
export function functionchatMeta(sample: SampleFacts): FunctionChatMeta {
  const m = sample.metadata;
  if (!['singlecall', 'dialog', 'calldecision'].includes(m.task as string) || !OUTPUT_TYPES.includes(m.type_of_output) || typeof m.serial_num !== 'number' || typeof m.bench_version !== 'string') {
    notOurs(sample, 'metadata');
  }
  return m as FunctionChatMeta;
}

/** The sample's target (checked, since samples may come back from a store). */
export function functionchatTarget(sample: SampleFacts): FunctionChatTarget {
  const t = sample.target as Partial<FunctionChatTarget> | null;
  const gt = t?.groundTruth;
  const okTruth = gt !== undefined && ((gt.kind === 'call' && typeof gt.name === 'string' && typeof gt.arguments === 'object') || (gt.kind === 'text' && typeof gt.content === 'string'));
  if (!t || !okTruth || typeof t.acceptable?.kind !== 'string') notOurs(sample, 'target');
  return t as FunctionChatTarget;
}
