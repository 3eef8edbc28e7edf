import type { Rng } from '../core/random.js';

/** A paired sign-flip permutation test of a mean difference. */
export interface SignFlipTest {
  /** Two-sided p-value; null when there is no pair. */
  readonly p: number | null;
  /** True when every sign assignment was counted; false for a Monte Carlo estimate. */
  readonly exact: boolean;
  /** Random sign assignments drawn (Monte Carlo); null when exact. */
  readonly resamples: number | null;
}

export interface SignFlipOptions {
  /** The draws' randomness when the test is not exact: pass `rngFor(seed, label)` so the p-value is reproducible. */
  readonly rng: Rng;
  /** Random sign assignments for the Monte Carlo estimate (default 10,000). */
  readonly resamples?: number;
  /** Up to this many non-zero differences, all 2ⁿ assignments are counted (default 16: 65,536). */
  readonly exactUpTo?: number;
}

/**
 * Is the mean of paired differences (B − A per item) away from 0? Under no change each
 * difference is as likely to have either sign, so the observed |Σ d| is compared with |Σ ±d|
 * over sign assignments: p is the share at least as far from 0. Chosen over a bootstrap p-value
 * because it needs no assumption beyond that symmetry, is exact for small n, and its null is
 * the question asked ("did this change anything?").
 *
 * Zero differences are dropped (their sign changes nothing), so the test is exact up to
 * `exactUpTo` items that changed; beyond, `resamples` random assignments give
 * p = (1 + hits) / (1 + resamples), which never reports an impossible 0 (Phipson & Smyth, 2010).
 */
export function signFlipTest(differences: readonly number[], options: SignFlipOptions): SignFlipTest {
  const { rng, resamples = 10_000, exactUpTo = 16 } = options;
  if (differences.length === 0) return { p: null, exact: true, resamples: null };
  const moved = differences.filter((d) => d !== 0).map(Math.abs);
  if (moved.length === 0) return { p: 1, exact: true, resamples: null };
  const observed = Math.abs(differences.reduce((sum, d) => sum + d, 0));
  // Sums of the same magnitudes in another order can differ in the last bits: a tie must count.
  const threshold = observed - 1e-12 * moved.reduce((sum, d) => sum + d, 0);
  if (moved.length <= exactUpTo) {
    let hits = 0;
    const assignments = 2 ** moved.length;
    for (let signs = 0; signs < assignments; signs++) {
      if (Math.abs(signedSum(moved, (i) => (signs >>> i) & 1)) >= threshold) hits++;
    }
    return { p: hits / assignments, exact: true, resamples: null };
  }
  let hits = 0;
  const words = new Uint32Array(Math.ceil(moved.length / 32));
  for (let r = 0; r < resamples; r++) {
    // One uniform draw gives 32 fair signs.
    for (let w = 0; w < words.length; w++) words[w] = Math.floor(rng.next() * 4294967296);
    if (Math.abs(signedSum(moved, (i) => ((words[i >>> 5] as number) >>> (i & 31)) & 1)) >= threshold) hits++;
  }
  return { p: (1 + hits) / (1 + resamples), exact: false, resamples };
}

/** Σ ±magnitudes, the sign of each from `negative(i)` (1: minus). */
function signedSum(magnitudes: readonly number[], negative: (i: number) => number): number {
  let sum = 0;
  for (let i = 0; i < magnitudes.length; i++) sum += negative(i) ? -(magnitudes[i] as number) : (magnitudes[i] as number);
  return sum;
}
