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
  const fold = new RepeatPassFold(k);
  for (const verdicts of samples) fold.add(verdicts);
  return fold.finish(seed);
}

/**
 * {@link repeatPassFigures} a sample at a time, for a summary that reads the store a page at a
 * time: what it keeps is each decided sample's number of passes (the bootstrap resamples their
 * shares in sample order), not each sample's k verdicts — ~430 bytes a sample held as arrays, 8.6 MB
 * of a 19,793-sample run's summary at 5 repeats (docs/benchmarks.md, "the summary's memory at
 * 100,000 calls").
 * The figures are the same numbers to the last bit: counts, and shares of the same counts.
 */
export class RepeatPassFold {
  /** Per decided sample, in order, its passes among its k repeats. */
  private readonly passes: number[] = [];
  private samples = 0;
  private atLeastOne = 0;
  private all = 0;
  private passTotal = 0;

  constructor(private readonly k: number) {}

  /** One sample's verdicts by repeat (length k: a missing repeat is `null`). */
  add(verdicts: readonly (boolean | null)[]): void {
    this.samples++;
    if (verdicts.length !== this.k) return;
    let passes = 0;
    for (const verdict of verdicts) {
      if (verdict === null) return;
      if (verdict) passes++;
    }
    this.passes.push(passes);
    this.passTotal += passes;
    if (passes > 0) this.atLeastOne++;
    if (passes === this.k) this.all++;
  }

  finish(seed: number): RepeatPassFigures {
    const { k, atLeastOne, all } = this;
    const n = this.passes.length;
    return {
      k,
      decided: n,
      undecided: this.samples - n,
      // Counted, not averaged, so a hand count reads the same figure exactly.
      passRate: n === 0 ? null : this.passTotal / (n * k),
      passRateCi95: n === 0 ? null : bootstrapMeanInterval(this.passes.map((passes) => passes / k), { rng: rngFor(seed, 'repeat-pass-rate') }),
      passAtK: n === 0 ? null : atLeastOne / n,
      passAtKCi95: wilsonInterval(atLeastOne, n),
      passHatK: n === 0 ? null : all / n,
      passHatKCi95: wilsonInterval(all, n),
    };
  }
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
  const fold = new RepeatValueFold(k);
  for (const values of samples) fold.add(values);
  return fold.finish();
}

/** Left to right from 0, as the figures have always been summed. */
const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/**
 * {@link repeatValueFigures} a sample at a time: each decided sample's sum and standard deviation
 * are added to running totals in sample order, the same additions in the same order as summing
 * them at the end, so the figures are the same to the last bit.
 */
export class RepeatValueFold {
  private samples = 0;
  private decided = 0;
  private sumOfSums = 0;
  private sumOfSds = 0;

  constructor(private readonly k: number) {}

  /** One sample's values by repeat (length k: a repeat without a value is `null`). */
  add(values: readonly (number | null)[]): void {
    this.samples++;
    if (values.length !== this.k || values.some((x) => x === null)) return;
    const v = values as readonly number[];
    const k = this.k;
    const m = sum(v) / k;
    this.decided++;
    this.sumOfSums += sum(v);
    this.sumOfSds += Math.sqrt(sum(v.map((x) => (x - m) ** 2)) / k);
  }

  finish(): RepeatValueFigures {
    const { k, decided } = this;
    return {
      k,
      decided,
      undecided: this.samples - decided,
      mean: decided === 0 ? null : this.sumOfSums / (decided * k),
      spread: decided === 0 ? null : this.sumOfSds / decided,
    };
  }
}
