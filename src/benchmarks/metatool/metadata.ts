import type { SampleFacts } from '../../core/index.js';
import type { AwarenessExample, SelectionExample } from './prompts.js';

/** Where a sample's prompt came from: rebuilt by assay, or replayed from a shipped upstream file. */
export type PromptSource = 'assay' | 'upstream';

/** Metadata of a `metatool/awareness` sample. */
// Type aliases, not interfaces: only those are assignable to `Sample.metadata` (a Record).
export type AwarenessMeta = {
  readonly task: 'awareness';
  readonly source: PromptSource;
  readonly query: string;
  /** The item's label: the query needs a tool. */
  readonly needsTool: boolean;
  /** For positives, the ToolE tool the query came from. */
  readonly tool?: string;
  readonly shots: 0 | 5;
  /** The in-context examples, in prompt order (assay five-shot only). */
  readonly examples?: readonly AwarenessExample[];
};

export type SelectionTaskName = 'similar' | 'scenario' | 'reliability' | 'multi';
export type MultiCondition = 'at-most-two' | 'must-two';

/** Metadata of a tool-selection sample (similar, scenario, reliability, multi). */
export type SelectionMeta = {
  readonly task: SelectionTaskName;
  readonly source: PromptSource;
  readonly query: string;
  /** The right tools: one (similar, scenario), two (multi), none (reliability: the answer is "None"). */
  readonly gold: readonly string[];
  /** The tool names shown to the model, in the order shown. */
  readonly candidates: readonly string[];
  /** 1-based position of each gold tool in `candidates`, in the order of `gold`. */
  readonly goldPositions: readonly number[];
  readonly maxSelections: 1 | 2;
  readonly shots: 0 | 5;
  /** reliability: the ToolE tool the query belongs to (left out of the list on purpose). */
  readonly queryTool?: string;
  /** scenario: the scenario list's name. */
  readonly scenario?: string;
  /** multi: the prompt condition. */
  readonly condition?: MultiCondition;
  /** similar: the gold's five nearest other tools, nearest first (for Top@k error analysis). */
  readonly nearest?: readonly string[];
  /** similar on a user's own tools: what ranked the nearest tools (`lexical` or an embedding model id). */
  readonly embedder?: string;
  /** The in-context examples, in prompt order (assay five-shot only). */
  readonly examples?: readonly SelectionExample[];
};

function fail(sample: SampleFacts, what: string): never {
  throw new Error(`sample ${sample.id}: metadata is not MetaTool ${what} metadata`);
}

/** The sample's awareness metadata (checked, since samples may come back from a store). */
export function awarenessMeta(sample: SampleFacts): AwarenessMeta {
  const m = sample.metadata;
  if (m.task !== 'awareness' || typeof m.needsTool !== 'boolean' || typeof m.query !== 'string') fail(sample, 'awareness');
  return m as AwarenessMeta;
}

/** The sample's selection metadata (checked, since samples may come back from a store). */
export function selectionMeta(sample: SampleFacts): SelectionMeta {
  const m = sample.metadata;
  const isNames = (v: unknown): boolean => Array.isArray(v) && v.every((x) => typeof x === 'string');
  if (typeof m.task !== 'string' || !['similar', 'scenario', 'reliability', 'multi'].includes(m.task) || !isNames(m.gold) || !isNames(m.candidates) || (m.maxSelections !== 1 && m.maxSelections !== 2)) {
    fail(sample, 'selection');
  }
  return m as SelectionMeta;
}
