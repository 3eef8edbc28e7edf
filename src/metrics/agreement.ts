import { rngFor } from '../core/random.js';
import { bcaInterval, type Interval } from './intervals.js';
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
  /**
   * BCa bootstrap 95% interval of kappa, resampling items (`kappaInterval`); null when kappa has no
   * value. One computation for a set of pairs wherever it is asked (run summary, `assay agreement`).
   */
  readonly kappaInterval: Interval | null;
  /** Rows = the first rater, columns = the second. */
  readonly confusion: ConfusionMatrix;
}

export interface SeverityAgreementOptions {
  /** Bootstrap resamples (default 2,000). */
  readonly resamples?: number;
}

/**
 * Exact and relaxed (±1) agreement, quadratic-weighted kappa with its BCa interval, and the
 * confusion matrix, over pairs `[first rater, second rater]` of severities on a contiguous scale.
 * @throws RangeError for a severity that is not an integer on the scale.
 */
export function severityAgreement(pairs: readonly (readonly [number, number])[], scale: { readonly min: number; readonly max: number }, options: SeverityAgreementOptions = {}): SeverityAgreement {
  const confusion = confusionMatrix(pairs, scale);
  const n = pairs.length;
  const share = (hit: (a: number, b: number) => boolean): number | null => (n === 0 ? null : pairs.filter(([a, b]) => hit(a, b)).length / n);
  const kappa = quadraticWeightedKappa(confusion);
  return {
    n,
    exact: share((a, b) => a === b),
    relaxed: share((a, b) => Math.abs(a - b) <= 1),
    kappa: kappa.kappa,
    ...(kappa.kappa === null ? { kappaNote: kappa.reason } : {}),
    kappaInterval: kappa.kappa === null ? null : kappaInterval(pairs, scale, options.resamples),
    confusion,
  };
}

/** Whether the kappa interval is the expanded BCa (chosen by the coverage `npm run sim:kappa` measures; docs/harm.md). */
export const KAPPA_INTERVAL_EXPANDED = true;

/**
 * The BCa 95% interval of quadratic-weighted kappa over pairs, resampling items. Its randomness is
 * seeded by the pairs themselves (as a multiset: the confusion matrix), so the same pairs give the
 * same interval wherever they are measured — a run's summary and `assay agreement` agree to the
 * last digit — and the order the items come in does not matter.
 */
export function kappaInterval(pairs: readonly (readonly [number, number])[], scale: { readonly min: number; readonly max: number }, resamples?: number, expand = KAPPA_INTERVAL_EXPANDED): Interval | null {
  const canonical = [...pairs].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const rng = rngFor('kappa-interval', JSON.stringify([scale.min, scale.max, confusionMatrix(canonical, scale).counts]));
  const kappaOf = (sample: readonly (readonly [number, number])[]): number | null => quadraticWeightedKappa(confusionMatrix(sample, scale)).kappa;
  return bcaInterval(canonical, kappaOf, { rng, expand, ...(resamples === undefined ? {} : { resamples }) });
}
