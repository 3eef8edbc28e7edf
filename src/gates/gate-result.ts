import type { Interval } from '../metrics/intervals.js';

/**
 * A gate's outcome. `inconclusive` is its own outcome, never folded into the other two: a metric
 * with no value (no sample decided, a run that produced nothing) or an interval that leaves the
 * question open under `require: confident` says neither "may ship" nor "must not".
 */
export type GateOutcome = 'pass' | 'fail' | 'inconclusive';

/**
 * Where the 95% interval lies against what the gate accepts: wholly inside (`clears`), across its
 * edge (`straddles`), wholly outside (`misses`), or there is none (`none`: the task returns no
 * interval for the metric, or there is no value).
 */
export type IntervalRelation = 'clears' | 'straddles' | 'misses' | 'none';

/** One gate checked for one model: what the console table, JUnit and the step summary show. */
export interface GateResult {
  readonly kind: 'threshold' | 'regression';
  /** The suite entry's label (its task, with its position when a suite runs one task twice). */
  readonly entry: string;
  readonly task: string;
  readonly model: string;
  readonly metric: string;
  /** The metric's unit, when declared: how its figures are written (`share` as a percentage). */
  readonly unit?: string;
  /** The gate in words: `min 0.95`, `max 0.05, confident`, `no worse than −0.02 vs run X`. */
  readonly rule: string;
  readonly outcome: GateOutcome;
  /**
   * The figure decided on: the metric's point estimate (threshold), or the change B − A of the
   * metric over paired samples (regression); null when there is none.
   */
  readonly value: number | null;
  readonly interval: Interval | null;
  readonly relation: IntervalRelation;
  /** One line: why this outcome (what cleared, what straddled, what was missing). */
  readonly reason: string;
}
