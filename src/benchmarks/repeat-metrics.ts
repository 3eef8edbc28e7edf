import type { Score } from '../core/index.js';
import { RepeatPassFold, RepeatValueFold } from '../metrics/repeats.js';
import type { MetricDeclaration, Metrics, ScoreComparison } from './task.js';

/**
 * The metrics a run whose model under test answers each sample k > 1 times adds to its task's own
 * (issue 24 §2; `metrics/repeats.ts` says how each is computed and the no-verdict rule). Declared
 * like a task's metrics, so the report shows them with their units and a suite's gates take them
 * (`pass^k: {min: 0.8}`): the names carry a literal `k`, whatever the run's k, so a gate reads the
 * same for any number of repeats. A task's scores read through its comparison reading
 * (`Task.comparison`): pass/fail figures when they read as pass or fail, value figures when they
 * read as a number.
 */
export const REPEAT_METRIC_DECLARATIONS: readonly MetricDeclaration[] = [
  {
    name: 'repeat_pass_rate',
    meaning: 'mean pass rate over every repeat of the samples whose repeats all have a verdict (95% interval: percentile bootstrap over samples)',
    unit: 'share',
    direction: 'higher',
    interval: 'bootstrap',
  },
  {
    name: 'pass@k',
    meaning: 'share of samples with at least one pass among their k repeats (samples with a repeat without a verdict left out; 95% Wilson interval over samples)',
    unit: 'share',
    direction: 'higher',
    interval: 'wilson',
  },
  {
    name: 'pass^k',
    meaning: 'share of samples whose k repeats all pass — τ-bench’s reliability figure (samples with a repeat without a verdict left out; 95% Wilson interval over samples)',
    unit: 'share',
    direction: 'higher',
    interval: 'wilson',
  },
  {
    name: 'repeat_undecided',
    meaning: 'samples with a repeat that has no verdict (no verdict, an error, or no result yet): in none of the repeat figures',
    unit: 'count',
    direction: 'lower',
    interval: 'none',
  },
  {
    name: 'repeat_mean',
    meaning: 'mean of a numeric score over every repeat of the samples whose repeats all have a value',
    unit: 'mean',
    direction: 'none',
    interval: 'none',
  },
  {
    name: 'repeat_spread',
    meaning: 'within-sample spread of a numeric score: the mean over samples of the standard deviation of their k values (0 = every repeat agrees)',
    unit: 'mean',
    direction: 'lower',
    interval: 'none',
  },
];

/**
 * The repeat metrics of one model, a sample at a time: each sample's k scores as the task's
 * comparison reads them (a verdict and a value by repeat; `undefined` for a repeat that ended in
 * error or has no result reads as neither), added to the pass and value folds
 * (`metrics/repeats.ts`). A summary reading the store a page at a time keeps these folds, not the
 * scores (19,793 samples × 5 repeats: ~18 MB of parsed scores) nor each sample's reading of them
 * (~8.6 MB as arrays).
 */
export class RepeatTally {
  private readonly passFold: RepeatPassFold;
  private readonly valueFold: RepeatValueFold;
  /** Whether any repeat of any sample read as a pass/fail, or as a number. */
  private readsAsPass = false;
  private readsAsValue = false;

  constructor(
    private readonly comparison: ScoreComparison,
    private readonly k: number,
  ) {
    this.passFold = new RepeatPassFold(k);
    this.valueFold = new RepeatValueFold(k);
  }

  /** One sample's scores by repeat. */
  add(scores: readonly (Score | undefined)[]): void {
    const pass: (boolean | null)[] = [];
    const value: (number | null)[] = [];
    for (const score of scores) {
      const x = score === undefined ? undefined : this.comparison.read(score);
      if (x !== undefined && x.pass !== undefined) this.readsAsPass = true;
      if (x !== undefined && x.value !== undefined) this.readsAsValue = true;
      pass.push(typeof x?.pass === 'boolean' ? x.pass : null);
      value.push(typeof x?.value === 'number' ? x.value : null);
    }
    this.passFold.add(pass);
    this.valueFold.add(value);
  }

  /** The figures: pass/fail ones when a repeat read as pass or fail, value ones when one read as a number. */
  metrics(seed: number): Metrics {
    let metrics: Metrics = {};
    if (this.readsAsPass) {
      const f = this.passFold.finish(seed);
      metrics = { ...metrics, repeat_pass_rate: f.passRate, repeat_pass_rate_ci95: interval(f.passRateCi95), 'pass@k': f.passAtK, 'pass@k_ci95': interval(f.passAtKCi95), 'pass^k': f.passHatK, 'pass^k_ci95': interval(f.passHatKCi95), repeat_undecided: f.undecided };
    }
    if (this.readsAsValue) {
      const f = this.valueFold.finish();
      metrics = { ...metrics, repeat_mean: f.mean, repeat_spread: f.spread, ...(this.readsAsPass ? {} : { repeat_undecided: f.undecided }) };
    }
    return metrics;
  }
}

const interval = (i: { low: number; high: number } | null): Metrics[string] => (i === null ? null : { low: i.low, high: i.high });
