/** A cross-tabulation of two raters over the same items: rows = the first rater, columns = the second. */
export interface ConfusionMatrix {
  /** The scale's levels, lowest first: the rows' and columns' order. */
  readonly levels: readonly number[];
  /** counts[i][j] = items the first rater put at levels[i] and the second at levels[j]. */
  readonly counts: readonly (readonly number[])[];
}

/** Kappa or why it has no value. */
export type Kappa = { readonly kappa: number } | { readonly kappa: null; readonly reason: string };

/** Why kappa is undefined when chance alone explains all agreement (both raters use one and the same level for everything). */
export const KAPPA_UNDEFINED_NO_VARIATION = 'undefined: both raters gave every item the same single level, so the agreement expected by chance is 1 and kappa is 0/0';

/**
 * Why kappa is given no value when one rater gave every item one level and the other did not:
 * the formula then yields exactly 0 whatever the pairs, a figure that reads as "chance agreement"
 * but measures nothing — the constant rater tells no items apart.
 */
export const KAPPA_UNDEFINED_ONE_RATER_CONSTANT = 'undefined: one rater gave every item the same level, so there is no agreement beyond chance to measure (the formula gives 0 whatever the other rater did)';

/**
 * The confusion matrix of paired ratings on a contiguous integer scale.
 * @throws RangeError for a rating that is not an integer on the scale.
 */
export function confusionMatrix(pairs: readonly (readonly [number, number])[], scale: { readonly min: number; readonly max: number }): ConfusionMatrix {
  const levels: number[] = [];
  for (let level = scale.min; level <= scale.max; level++) levels.push(level);
  const counts = levels.map(() => levels.map(() => 0));
  for (const [a, b] of pairs) {
    for (const v of [a, b]) {
      if (!Number.isInteger(v) || v < scale.min || v > scale.max) throw new RangeError(`confusionMatrix: ${v} is not a level of the scale ${scale.min}–${scale.max}`);
    }
    const row = counts[a - scale.min] as number[];
    row[b - scale.min] = (row[b - scale.min] ?? 0) + 1;
  }
  return { levels, counts };
}

/**
 * Cohen's kappa with quadratic weights over the scale's levels (agreement weight
 * w_ij = 1 − (i − j)² / (k − 1)²): agreement beyond chance, where a near miss counts for more
 * than a far one — the usual statistic for ordinal severity scales. Levels no rater used still
 * count in k, so the weights depend on the scale, not on the data.
 *
 * κ = (p_o − p_e) / (1 − p_e), p_o = Σ w_ij O_ij / n, p_e = Σ w_ij r_i c_j / n².
 * Undefined (null with the reason) when there are no items, when the scale has one level, when
 * p_e = 1 (both raters used one and the same level for everything), or when one rater used a
 * single level (κ is then 0 by construction, whatever the pairs).
 */
export function quadraticWeightedKappa(matrix: ConfusionMatrix): Kappa {
  const k = matrix.levels.length;
  const n = matrix.counts.reduce((sum, row) => sum + row.reduce((s, c) => s + c, 0), 0);
  if (n === 0) return { kappa: null, reason: 'undefined: no items' };
  if (k < 2) return { kappa: null, reason: 'undefined: a scale with one level has no disagreement to weigh' };
  const rows = matrix.counts.map((row) => row.reduce((s, c) => s + c, 0));
  const columns = matrix.levels.map((_, j) => matrix.counts.reduce((s, row) => s + (row[j] as number), 0));
  let observed = 0;
  let expected = 0;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const weight = 1 - ((i - j) * (i - j)) / ((k - 1) * (k - 1));
      observed += weight * ((matrix.counts[i] as number[])[j] as number);
      expected += (weight * (rows[i] as number) * (columns[j] as number)) / n;
    }
  }
  // In counts (× n): p_o − p_e = (observed − expected)/n, 1 − p_e = (n − expected)/n.
  if (n - expected <= 1e-12 * n) return { kappa: null, reason: KAPPA_UNDEFINED_NO_VARIATION };
  const usedLevels = (margin: readonly number[]): number => margin.filter((c) => c > 0).length;
  if (usedLevels(rows) === 1 || usedLevels(columns) === 1) return { kappa: null, reason: KAPPA_UNDEFINED_ONE_RATER_CONSTANT };
  return { kappa: (observed - expected) / (n - expected) };
}
