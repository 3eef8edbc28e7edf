// Shapes of the run report that the report page reads, declared once: the server builds them
// (judge-health.ts, sample-rows.ts, view/run-progress.ts) and the page (html/page/types.ts) reads these declarations
// through type-only `import()` types. Only imports without imports of their own: the page is
// compiled apart for the browser, with whatever this file imports.
import type { MetricValue } from '../benchmarks/metric-value.js';

/** How far a judged metric can be trusted, per model under test: what the judge did and how steadily. */
export interface JudgeHealth {
  readonly model: string;
  readonly judge: string;
  /** Repeats per judgment (`--judge-repeats`). */
  readonly repeats: number;
  readonly selfGrading: boolean;
  /** Items the judge graded, and of those the ones left without a verdict (and their share). */
  readonly judged: number;
  readonly noVerdict: number;
  readonly noVerdictShare: number | null;
  /** Judge calls (every attempt) and re-asks of unreadable answers (calls labelled `step#k`); re-asks null when the calls have no labels (older runs). */
  readonly calls: number;
  readonly reasks: number | null;
  /** Samples that ended in error because the judge failed (`judge-*` kinds). */
  readonly judgeErrors: number;
  /**
   * Mean share of repeats agreeing with the majority (a rubric's votes, or the most common of the
   * repeated severities or scores), and the share of unanimous judgments; null with one repeat or none recorded.
   */
  readonly agreement: number | null;
  readonly unanimous: number | null;
  /** Human reviewers against the judge's verdicts (`assay review`), over reviewed items the judge graded pass or fail. */
  readonly reviews: { readonly reviewed: number; readonly compared: number; readonly agree: number; readonly share: number | null; readonly changed: number } | null;
  /** The task's own agreement with human labels (a `human_agreement` metric), as the metrics give it. */
  readonly labels: MetricValue | null;
}

/**
 * Every (sample, model) of a run, compact and columnar, so that a 100,000-sample run's index
 * stays a few megabytes: row `i` is sample `ids[sample[i]]` answered by `models[model[i]]`.
 */
export interface SampleIndex<V extends string = string> {
  /** The run's sample ids, in run order. */
  readonly ids: readonly string[];
  readonly models: readonly string[];
  /** Indexes into `VERDICTS` (sample-rows.ts). */
  readonly verdicts: readonly V[];
  /** Error kinds, indexed by `rows.error` (−1: none). */
  readonly errorKinds: readonly string[];
  readonly rows: {
    readonly sample: readonly number[];
    readonly model: readonly number[];
    readonly verdict: readonly number[];
    readonly error: readonly number[];
    /** `ROW_FLAGS` bits (sample-rows.ts). */
    readonly flags: readonly number[];
    /** Each row's repeat (0-based), only for a run whose model answers each sample several times (`repeats` > 1): a row per sample, model and repeat then. */
    readonly repeat?: readonly number[];
  };
  /** A numeric score's value, by row index (rows whose verdict is `number`). */
  readonly values: Readonly<Record<string, number>>;
}

/**
 * Where a run stands now, from counts alone (no sample, result or output row is read): what the
 * viewer's run list shows and what an open page polls while the run is in progress.
 */
export interface RunProgress<S extends string = string> {
  readonly run: string;
  readonly task: string;
  readonly models: readonly string[];
  /** As `assay runs` says it: a live lease is `running`, a dead one `stale`. */
  readonly status: S;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Samples per model; null for a run made before runs recorded their count (all its samples were stored at once). */
  readonly samples: number | null;
  /** Results per model under test, in the run's model order (0 for a model with none yet). */
  readonly progress: readonly { readonly model: string; readonly done: number; readonly errors: number }[];
  /** Every role's calls so far: USD of the priced ones, and how many successful calls have no price. */
  readonly cost: { readonly usd: number; readonly unpriced: number };
}
