import type { Interval } from '../metrics/intervals.js';
import { formatFigure, formatInterval } from './format-figure.js';
import type { GateResult, IntervalRelation } from './gate-result.js';

/** What `compare` computed for one model pair (analysis/compare's `ModelComparison`, structurally: gates/ does not import analysis/). */
export interface PairedModelReadings {
  readonly modelA: string;
  readonly modelB: string;
  readonly samples: { readonly shared: number; readonly inputDiffers: number; readonly errors: number };
  /** Present when a run has repeats: the readings below are then per sample (each its repeats' share or mean) with a bootstrap over samples. */
  readonly pairing?: { readonly unit: 'sample' };
  /** Pass rates over the samples decided on both sides; `difference` is B − A with Newcombe's paired interval. */
  readonly passFail: { readonly decided: number; readonly difference: number | null; readonly interval: Interval | null; readonly passMeans: string } | null;
  /** Means of the task's per-sample number; `difference` is B − A with a paired bootstrap interval. */
  readonly value: { readonly decided: number; readonly difference: number | null; readonly interval: Interval | null; readonly valueMeans: string } | null;
}

/** Two runs compared sample by sample (analysis/compare's `RunComparison`, structurally): A the baseline, B the candidate. */
export interface RegressionComparison {
  readonly task: string;
  readonly runA: { readonly id: string };
  readonly runB: { readonly id: string };
  readonly comparisons: readonly PairedModelReadings[];
}

/**
 * Which per-sample reading of `compare` a gated metric moves with: `pass` (the pass/fail of each
 * sample: a pass rate, or — for a better-lower metric such as harm's defect_rate — the share
 * failing, i.e. one minus it) or `value` (the per-sample number whose mean the metric is).
 */
export type PairedReading = 'pass' | 'value';

export interface RegressionGate {
  /** The suite entry's label. */
  readonly entry?: string;
  readonly metric: string;
  readonly unit?: string;
  readonly reading: PairedReading;
  /** The metric's better direction (from its declaration; `none` is refused before a run). */
  readonly direction: 'higher' | 'lower';
  /** How much worse than the baseline is allowed, in the metric's units (≥ 0). */
  readonly margin: number;
  readonly require?: 'non-inferior';
}

/**
 * The regression check of one gated metric, per model pair (docs/suites.md): the change B − A
 * (candidate − baseline) over samples paired by id and input, with compare's 95% paired interval
 * (for runs with repeats, compare's sample-level one: the sample is the unit, not the answer).
 * Turned to "better is positive" by the metric's direction, with interval [lo, hi]:
 * - default: **fail** when the whole interval is worse than −margin (hi < −margin: a regression
 *   with 95% confidence), else pass (the relation says whether the interval straddles −margin);
 * - `require: non-inferior`: **pass** only when the whole interval is no worse than −margin
 *   (lo ≥ −margin), else fail;
 * - no pair decided on both sides (no interval): inconclusive.
 * Samples whose inputs differ between the runs are not paired (compare counts them apart).
 */
export function evaluateRegression(comparison: RegressionComparison, gate: RegressionGate): GateResult[] {
  if (!(gate.margin >= 0)) throw new RangeError(`evaluateRegression: margin must be ≥ 0, got ${gate.margin}`);
  return comparison.comparisons.map((pair) => decidePair(comparison, pair, gate));
}

function decidePair(comparison: RegressionComparison, pair: PairedModelReadings, gate: RegressionGate): GateResult {
  const unit = gate.unit;
  const model = pair.modelA === pair.modelB ? pair.modelB : `${pair.modelB} (vs ${pair.modelA})`;
  const rule = gate.require === 'non-inferior'
    ? `non-inferior: no worse than ${formatFigure(-gate.margin, unit, true)} vs run ${comparison.runA.id}, with 95% confidence`
    : `no regression beyond ${formatFigure(-gate.margin, unit, true)} vs run ${comparison.runA.id}`;
  const base = { kind: 'regression' as const, entry: gate.entry ?? comparison.task, task: comparison.task, model, metric: gate.metric, ...(unit === undefined ? {} : { unit }), rule };
  const reading = gate.reading === 'pass' ? pair.passFail : pair.value;
  const unpaired = pair.samples.inputDiffers > 0 ? `; ${pair.samples.inputDiffers} sample(s) not paired (their inputs differ)` : '';
  if (reading === null || reading.difference === null || reading.interval === null) {
    const what = reading === null ? `the task's scores have no ${gate.reading === 'pass' ? 'pass/fail' : 'numeric'} reading` : 'no sample was decided in both runs';
    return { ...base, outcome: 'inconclusive', value: null, interval: null, relation: 'none', reason: `${what}: nothing to compare${unpaired}` };
  }
  // The metric's own frame: a better-lower metric read through pass/fail is the share failing.
  const flip = gate.reading === 'pass' && gate.direction === 'lower';
  const change = flip ? -reading.difference : reading.difference;
  const interval = flip ? { low: -reading.interval.high, high: -reading.interval.low } : reading.interval;
  // Better is positive: a better-lower metric's rise is a loss.
  const better = gate.direction === 'higher' ? interval : { low: -interval.high, high: -interval.low };
  const floor = -gate.margin;
  const relation: IntervalRelation = better.low >= floor ? 'clears' : better.high < floor ? 'misses' : 'straddles';
  // With repeats the unit is the sample (its repeats averaged), and the interval a cluster bootstrap over samples.
  const over = pair.pairing ? `${reading.decided} paired sample(s), each over its repeats (cluster bootstrap over samples)` : `${reading.decided} paired sample(s)`;
  const figures = `B − A of ${gate.metric} over ${over}: ${formatFigure(change, unit, true)}, 95% interval ${formatInterval(interval, unit, true)}`;
  const margin = `${gate.direction === 'higher' ? 'a drop' : 'a rise'} of ${formatFigure(gate.margin, unit)}`;
  if (gate.require === 'non-inferior') {
    return relation === 'clears'
      ? { ...base, outcome: 'pass', value: change, interval, relation, reason: `${figures}: the whole interval is within ${margin} (non-inferior)${unpaired}` }
      : { ...base, outcome: 'fail', value: change, interval, relation, reason: `${figures}: the interval reaches past ${margin}, so non-inferiority is not shown${unpaired}` };
  }
  return relation === 'misses'
    ? { ...base, outcome: 'fail', value: change, interval, relation, reason: `${figures}: the whole interval is worse than ${margin}: a regression${unpaired}` }
    : { ...base, outcome: 'pass', value: change, interval, relation, reason: `${figures}: ${relation === 'clears' ? `within ${margin}` : `straddles ${margin}, not a regression with 95% confidence`}${unpaired}` };
}

/**
 * The reading a declared metric is compared through, from its unit: a mean or a level is the
 * per-sample number's mean (`value`); anything else (a share) is read through pass/fail. This
 * holds for the headline metrics (pass_rate, csr, alignment, defect_rate, mean_score) but not for
 * metrics over something other than samples (claim_support is over claims): tasks do not yet
 * declare which per-sample reading each metric aggregates.
 */
export function pairedReadingOf(unit: string): PairedReading {
  return unit === 'mean' || unit === 'level' ? 'value' : 'pass';
}

/**
 * `assay compare A B --fail-on-regression MARGIN`: the regression gate on every model pair's pass
 * rate (compare's pass/fail reading, where a pass is always the good side: "no defect" for harm),
 * A the baseline and B the candidate. A pair whose task has no pass/fail reading is inconclusive:
 * whether its number is better high or low is the task's metric declaration's to say, which the
 * comparison of two runs does not name.
 */
export function comparisonRegression(comparison: RegressionComparison, margin: number): GateResult[] {
  const passMeans = comparison.comparisons.find((c) => c.passFail !== null)?.passFail?.passMeans ?? 'pass';
  return evaluateRegression(comparison, { metric: `${passMeans} rate`, unit: 'share', reading: 'pass', direction: 'higher', margin });
}
