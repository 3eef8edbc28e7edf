import type { Rng } from '../core/random.js';

/** A two-sided confidence interval. */
export interface Interval {
  readonly low: number;
  readonly high: number;
}

/** z for a two-sided 95% interval (the 0.975 quantile of the standard normal). */
export const Z_95 = 1.959963984540054;

/**
 * Wilson score interval for a share `successes / n` (95% by default). Preferred to the normal
 * ("Wald") interval because it stays inside [0, 1] and keeps its coverage near 0 and 1 and for
 * small n — the shares assay reports (alignment, defect rates) often sit there.
 *
 * @returns null when `n` is 0 (no share, no interval).
 * @throws RangeError when the counts are not integers with 0 ≤ successes ≤ n.
 */
export function wilsonInterval(successes: number, n: number, z: number = Z_95): Interval | null {
  if (!Number.isInteger(successes) || !Number.isInteger(n) || successes < 0 || successes > n) {
    throw new RangeError(`wilsonInterval: expected integers 0 ≤ successes ≤ n, got ${successes}/${n}`);
  }
  if (n === 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denominator;
  const margin = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  // Clamp away rounding: at p = 0 or 1 one end is exactly 0 or 1 in exact arithmetic.
  return { low: Math.max(0, center - margin), high: Math.min(1, center + margin) };
}

export interface BootstrapOptions {
  /** The resampling's randomness: pass `rngFor(seed, label)` so the interval is reproducible. */
  readonly rng: Rng;
  /** Resamples drawn (default 2,000). */
  readonly resamples?: number;
  /** Coverage (default 0.95). */
  readonly level?: number;
}

/**
 * Percentile bootstrap interval of a statistic over **units** (e.g. summaries): each resample
 * draws as many units as there are, with replacement, and recomputes the statistic. Resampling
 * whole units keeps what belongs together together — the claims of one summary are not
 * independent, so a claim-level share is resampled by summary, not by claim. Resamples where the
 * statistic is undefined (null) are skipped; the bounds are the (1−level)/2 and (1+level)/2
 * quantiles of the rest (nearest rank).
 *
 * @returns null when there are no units or no resample gives a value.
 */
export function bootstrapInterval<T>(units: readonly T[], statistic: (sample: readonly T[]) => number | null, options: BootstrapOptions): Interval | null {
  const { rng, resamples = 2000, level = 0.95 } = options;
  if (units.length === 0) return null;
  const values: number[] = [];
  const draw: T[] = new Array<T>(units.length);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < units.length; i++) draw[i] = units[rng.int(units.length)] as T;
    const value = statistic(draw);
    if (value !== null && Number.isFinite(value)) values.push(value);
  }
  if (values.length === 0) return null;
  values.sort((a, b) => a - b);
  const rank = (q: number): number => values[Math.min(values.length - 1, Math.max(0, Math.ceil(q * values.length) - 1))] as number;
  return { low: rank((1 - level) / 2), high: rank((1 + level) / 2) };
}
