import type { Rng } from '../core/random.js';
import { normalCdf, normalQuantile, tQuantile } from './normal.js';

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
  /**
   * BCa only: widen for a small number of units as the "expanded" percentile interval does
   * (Hesterberg 2015): each normal quantile z_q becomes √(n/(n−1))·t_{q,n−1}, undoing the
   * bootstrap's narrowness by a factor √((n−1)/n) and using t's heavier tails. Default false.
   */
  readonly expand?: boolean;
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
  return percentileBounds(resampledValues(units, statistic, rng, resamples), level);
}

/** The (1−level)/2 and (1+level)/2 quantiles of the resampled values (nearest rank), sorting them in place; null when there are none. */
function percentileBounds(values: number[], level: number): Interval | null {
  if (values.length === 0) return null;
  values.sort((a, b) => a - b);
  const rank = (q: number): number => values[Math.min(values.length - 1, Math.max(0, Math.ceil(q * values.length) - 1))] as number;
  return { low: rank((1 - level) / 2), high: rank((1 + level) / 2) };
}

/**
 * `bootstrapInterval(values, mean, options)` for the mean of numbers, the same to the last bit: the
 * same draws from `rng` in the same order, each resample's mean summed left to right from 0 as
 * `values.reduce((a, b) => a + b, 0) / n` sums it. Without the draw array and the statistic's
 * callback: a run's `repeat_pass_rate` resamples 2,000 × its samples (~40 million draws at 19,793
 * samples), where the generic form took ~1.6 s of a 100,000-call run's summary; and with a
 * resample's draws taken at once (`Rng.ints`), not a call each: ~330 → ~45 ms at 10,000 samples.
 */
export function bootstrapMeanInterval(values: readonly number[], options: BootstrapOptions): Interval | null {
  const { rng, resamples = 2000, level = 0.95 } = options;
  const n = values.length;
  if (n === 0) return null;
  const means: number[] = [];
  const draws = new Uint32Array(n);
  for (let r = 0; r < resamples; r++) {
    rng.ints(n, draws);
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[draws[i] as number] as number;
    const value = sum / n;
    if (Number.isFinite(value)) means.push(value);
  }
  return percentileBounds(means, level);
}

/**
 * The statistic over `resamples` draws of the units with replacement (each draw as long as the
 * units, read from `rng` in order), the draws where it is undefined or not finite left out: what the
 * percentile and the BCa interval both start from, so the same seed gives both the same draws.
 */
function resampledValues<T>(units: readonly T[], statistic: (sample: readonly T[]) => number | null, rng: BootstrapOptions['rng'], resamples: number): number[] {
  const values: number[] = [];
  const draw: T[] = new Array<T>(units.length);
  const draws = new Uint32Array(units.length);
  for (let r = 0; r < resamples; r++) {
    rng.ints(units.length, draws);
    for (let i = 0; i < units.length; i++) draw[i] = units[draws[i] as number] as T;
    const value = statistic(draw);
    if (value !== null && Number.isFinite(value)) values.push(value);
  }
  return values;
}

/**
 * Bias-corrected and accelerated (BCa) bootstrap interval of a statistic over units (Efron 1987;
 * Efron & Tibshirani 1993, ch. 14): the percentile interval's quantiles moved by the bootstrap's
 * median bias (z₀) and by how the statistic's spread changes with its value (the acceleration a,
 * from the jackknife). Chosen for kappa, whose sampling distribution is skewed near ±1 and at small
 * n, where the plain percentile interval undercovers (measured: `npm run sim:kappa`, docs/harm.md).
 * Resamples where the statistic is undefined (null) are skipped, as are left-out units whose
 * jackknife value is undefined.
 *
 * @returns null when there are no units, the statistic is undefined on them, or no resample gives a value.
 */
export function bcaInterval<T>(units: readonly T[], statistic: (sample: readonly T[]) => number | null, options: BootstrapOptions): Interval | null {
  const { rng, resamples = 2000, level = 0.95 } = options;
  if (units.length === 0) return null;
  const estimate = statistic(units);
  if (estimate === null || !Number.isFinite(estimate)) return null;
  const values = resampledValues(units, statistic, rng, resamples);
  if (values.length === 0) return null;
  return bcaBounds(estimate, values, jackknifeAcceleration(units, statistic), level, options.expand === true && units.length > 2 ? units.length : undefined);
}

/**
 * The jackknife estimate of BCa's acceleration: with θ₍ᵢ₎ the statistic without unit i and θ₍·₎
 * their mean, a = Σ(θ₍·₎ − θ₍ᵢ₎)³ / (6 · (Σ(θ₍·₎ − θ₍ᵢ₎)²)^{3/2}); 0 when every θ₍ᵢ₎ is equal
 * (or fewer than two are defined).
 */
export function jackknifeAcceleration<T>(units: readonly T[], statistic: (sample: readonly T[]) => number | null): number {
  const leftOut: number[] = [];
  for (let i = 0; i < units.length; i++) {
    const value = statistic([...units.slice(0, i), ...units.slice(i + 1)]);
    if (value !== null && Number.isFinite(value)) leftOut.push(value);
  }
  if (leftOut.length < 2) return 0;
  const mean = leftOut.reduce((s, v) => s + v, 0) / leftOut.length;
  let squares = 0;
  let cubes = 0;
  for (const v of leftOut) {
    const d = mean - v;
    squares += d * d;
    cubes += d * d * d;
  }
  return squares <= 0 ? 0 : cubes / (6 * Math.pow(squares, 1.5));
}

/**
 * BCa's bounds from the estimate, the bootstrap values and the acceleration: z₀ = Φ⁻¹(share of
 * values below the estimate, ties counted half; kept within half a resample of 0 and 1), and each
 * quantile q of the percentile interval becomes Φ(z₀ + (z₀ + z_q)/(1 − a(z₀ + z_q))), read from
 * the sorted values by nearest rank (as `bootstrapInterval`). With `expandForUnits` n, z_q is
 * the expanded quantile √(n/(n−1))·t_{q,n−1} (see `BootstrapOptions.expand`).
 */
export function bcaBounds(estimate: number, values: readonly number[], acceleration: number, level = 0.95, expandForUnits?: number): Interval {
  const sorted = [...values].sort((a, b) => a - b);
  const B = sorted.length;
  const tolerance = 1e-12 * Math.max(1, Math.abs(estimate));
  let below = 0;
  for (const v of sorted) below += v < estimate - tolerance ? 1 : Math.abs(v - estimate) <= tolerance ? 0.5 : 0;
  const z0 = normalQuantile(Math.min(1 - 0.5 / B, Math.max(0.5 / B, below / B)));
  const adjusted = (q: number): number => {
    const n = expandForUnits;
    const zq = n === undefined ? normalQuantile(q) : Math.sqrt(n / (n - 1)) * tQuantile(q, n - 1);
    const denominator = 1 - acceleration * (z0 + zq);
    // A very large acceleration folds the mapping over: the bound goes to the end of its side.
    if (denominator <= 0) return q < 0.5 ? 0 : 1;
    return normalCdf(z0 + (z0 + zq) / denominator);
  };
  const rank = (q: number): number => sorted[Math.min(B - 1, Math.max(0, Math.ceil(q * B) - 1))] as number;
  return { low: rank(adjusted((1 - level) / 2)), high: rank(adjusted((1 + level) / 2)) };
}
