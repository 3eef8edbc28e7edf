import type { Rng } from '../core/random.js';
import { bootstrapInterval, type Interval } from './intervals.js';
import { confusionMatrix, quadraticWeightedKappa, type ConfusionMatrix } from './weighted-kappa.js';

/** How two raters (judge and human, two judges, two repeats) agree on the same items' severities. */
export interface SeverityAgreement {
  readonly n: number;
  /** Share of items rated the same; null without items. */
  readonly exact: number | null;
  /** Share of items rated within one level of each other (the seed's "relaxed" agreement). */
  readonly relaxed: number | null;
  /** Cohen's kappa, quadratic-weighted over the scale's levels; null when undefined (see `kappaNote`). */
  readonly kappa: number | null;
  /** Why kappa is null, when it is. */
  readonly kappaNote?: string;
  /** Percentile bootstrap 95% interval of kappa, resampling items; null when kappa is undefined in every resample. */
  readonly kappaInterval: Interval | null;
  /** Rows = the first rater, columns = the second. */
  readonly confusion: ConfusionMatrix;
}

export interface SeverityAgreementOptions {
  /** The bootstrap's randomness: `rngFor(seed, 'agreement:<what>')`, so the interval is reproducible. */
  readonly rng: Rng;
  /** Bootstrap resamples (default 2,000). */
  readonly resamples?: number;
}

/**
 * Exact and relaxed (±1) agreement, quadratic-weighted kappa with a bootstrap interval, and the
 * confusion matrix, over pairs `[first rater, second rater]` of severities on a contiguous scale.
 * @throws RangeError for a severity that is not an integer on the scale.
 */
export function severityAgreement(pairs: readonly (readonly [number, number])[], scale: { readonly min: number; readonly max: number }, options: SeverityAgreementOptions): SeverityAgreement {
  const confusion = confusionMatrix(pairs, scale);
  const n = pairs.length;
  const share = (hit: (a: number, b: number) => boolean): number | null => (n === 0 ? null : pairs.filter(([a, b]) => hit(a, b)).length / n);
  const kappa = quadraticWeightedKappa(confusion);
  const kappaOf = (sample: readonly (readonly [number, number])[]): number | null => quadraticWeightedKappa(confusionMatrix(sample, scale)).kappa;
  return {
    n,
    exact: share((a, b) => a === b),
    relaxed: share((a, b) => Math.abs(a - b) <= 1),
    kappa: kappa.kappa,
    ...(kappa.kappa === null ? { kappaNote: kappa.reason } : {}),
    kappaInterval: bootstrapInterval(pairs, kappaOf, { rng: options.rng, ...(options.resamples === undefined ? {} : { resamples: options.resamples }) }),
    confusion,
  };
}
