import { rngFor } from '../core/random.js';
import { bootstrapMeanInterval, wilsonInterval, type Interval } from './intervals.js';

/**
 * Repeats of the model under test (issue 24 §2): each sample answered k times, each answer's
 * verdict `true` (pass), `false` (fail) or `null` (no verdict: the scorer or judge could not
 * decide, the answer ended in error, or the repeat has no result yet).
 *
 * **No verdict is never a pass or a fail.** A sample with any repeat without a verdict is left
 * out of every figure below and counted apart (`undecided`): with a pass among its decided
 * repeats it would read as a pass for pass@k, but for pass^k its missing repeat could be the one
 * that fails, so the two would be computed over different samples. All three figures are over
 * the same samples: those whose k repeats each have a verdict (`decided`).
 *
 * - `passRate`: the mean pass rate, passes over the decided samples' k·n answers; 95% interval by a
 *   percentile bootstrap over samples (a sample's k answers are not independent, so they are
 *   resampled together), seeded so it is reproducible.
 * - `passAtK`: the share of decided samples with at least one pass among their k (pass@k as a
 *   count over exactly k answers, not the unbiased estimator from n > k draws); Wilson interval.
 * - `passHatK`: the share whose k all pass (pass^k, τ-bench's reliability figure); Wilson interval.
 */
export interface RepeatPassFigures {
  readonly k: number;
  readonly decided: number;
  /** Samples with a repeat without a verdict (or without a result): in no figure. */
  readonly undecided: number;
  readonly passRate: number | null;
  readonly passRateCi95: Interval | null;
  readonly passAtK: number | null;
  readonly passAtKCi95: Interval | null;
  readonly passHatK: number | null;
  readonly passHatKCi95: Interval | null;
}

/**
 * @param samples per sample, its verdicts by repeat (length k: a missing repeat is `null`).
 * @param seed the bootstrap's seed (the run's).
 */
export function repeatPassFigures(samples: readonly (readonly (boolean | null)[])[], k: number, seed: number): RepeatPassFigures {
  const decided = samples.filter((v) => v.length === k && v.every((x) => x !== null)) as (readonly boolean[])[];
  const n = decided.length;
  const atLeastOne = decided.filter((v) => v.some((x) => x)).length;
  const all = decided.filter((v) => v.every((x) => x)).length;
  const shares = decided.map((v) => v.filter((x) => x).length / k);
  return {
    k,
    decided: n,
    undecided: samples.length - n,
    // Counted, not averaged, so a hand count reads the same figure exactly.
    passRate: n === 0 ? null : decided.reduce((sum, v) => sum + v.filter((x) => x).length, 0) / (n * k),
    passRateCi95: n === 0 ? null : bootstrapMeanInterval(shares, { rng: rngFor(seed, 'repeat-pass-rate') }),
    passAtK: n === 0 ? null : atLeastOne / n,
    passAtKCi95: wilsonInterval(atLeastOne, n),
    passHatK: n === 0 ? null : all / n,
    passHatKCi95: wilsonInterval(all, n),
  };
}

/**
 * For a numeric score: the mean over every repeat of the samples whose k repeats all have a value
 * (`null`: no value — again counted apart), and the within-sample spread, the mean over those
 * samples of the standard deviation of their k values (population SD: 0 when every repeat agrees).
 */
export interface RepeatValueFigures {
  readonly k: number;
  readonly decided: number;
  readonly undecided: number;
  readonly mean: number | null;
  readonly spread: number | null;
}

export function repeatValueFigures(samples: readonly (readonly (number | null)[])[], k: number): RepeatValueFigures {
  const decided = samples.filter((v) => v.length === k && v.every((x) => x !== null)) as (readonly number[])[];
  const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
  const sds = decided.map((v) => {
    const m = sum(v) / k;
    return Math.sqrt(sum(v.map((x) => (x - m) ** 2)) / k);
  });
  return {
    k,
    decided: decided.length,
    undecided: samples.length - decided.length,
    mean: decided.length === 0 ? null : sum(decided.map((v) => sum(v))) / (decided.length * k),
    spread: decided.length === 0 ? null : sum(sds) / decided.length,
  };
}
