import { rngFor } from '../core/random.js';
import { bootstrapInterval, type Interval } from './intervals.js';
import { signFlipTest, type SignFlipTest } from './sign-flip.js';

/** The mean of a number measured twice on the same items (first: run A, second: run B), and their difference. */
export interface PairedMeanDifference {
  readonly n: number;
  /** Mean the first time; null when n is 0. */
  readonly first: number | null;
  readonly second: number | null;
  /** Mean of the per-item differences second − first (= second − first of the means); null when n is 0. */
  readonly difference: number | null;
  /** 95% paired percentile bootstrap interval of the difference (items resampled with both their values); null when n is 0. */
  readonly interval: Interval | null;
  /** Resamples the bootstrap drew. */
  readonly resamples: number;
  /** Sign-flip permutation test of the differences (two-sided). */
  readonly test: SignFlipTest;
  /** Items whose value went up, down, or stayed. */
  readonly higher: number;
  readonly lower: number;
  readonly equal: number;
}

export interface PairedMeanOptions {
  /** Seeds the bootstrap and the test's draws (each under its own label), so the same pairs always give the same figures. */
  readonly seed: string;
  /** Bootstrap resamples (default 2,000). */
  readonly resamples?: number;
}

const mean = (xs: readonly number[]): number | null => {
  if (xs.length === 0) return null;
  let sum = 0;
  for (const x of xs) sum += x;
  return sum / xs.length;
};

/**
 * B − A on paired numbers (a severity per conversation, before and after a mitigation). The
 * interval resamples **items** — the per-item differences — so the pairing is kept: a
 * conversation's two severities are not independent, and resampling each run apart would widen
 * the interval by ignoring that. The test is the sign-flip permutation test ({@link signFlipTest}).
 */
export function pairedMeanDifference(pairs: readonly (readonly [first: number, second: number])[], options: PairedMeanOptions): PairedMeanDifference {
  const resamples = options.resamples ?? 2000;
  const differences = pairs.map(([a, b]) => b - a);
  const test = signFlipTest(differences, { rng: rngFor(options.seed, 'sign-flip') });
  return {
    n: pairs.length,
    first: mean(pairs.map(([a]) => a)),
    second: mean(pairs.map(([, b]) => b)),
    difference: mean(differences),
    interval: bootstrapInterval(differences, mean, { rng: rngFor(options.seed, 'bootstrap'), resamples }),
    resamples,
    test,
    higher: differences.filter((d) => d > 0).length,
    lower: differences.filter((d) => d < 0).length,
    equal: differences.filter((d) => d === 0).length,
  };
}
