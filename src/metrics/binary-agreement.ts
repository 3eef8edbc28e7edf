import { KAPPA_UNDEFINED_NO_VARIATION, KAPPA_UNDEFINED_ONE_RATER_CONSTANT } from './weighted-kappa.js';

/** The 2×2 table of two yes/no raters (e.g. the judge's defect vs the string-match truth of a leak). */
export interface TwoByTwo {
  /** Both say yes. */
  readonly both: number;
  /** The first says yes, the second no. */
  readonly firstOnly: number;
  /** The first says no, the second yes. */
  readonly secondOnly: number;
  /** Both say no. */
  readonly neither: number;
}

export interface BinaryAgreement {
  readonly n: number;
  readonly table: TwoByTwo;
  /** (both + neither) / n; null without items. */
  readonly exact: number | null;
  /** Cohen's (unweighted) kappa; null when undefined (see `kappaNote`). */
  readonly kappa: number | null;
  readonly kappaNote?: string;
}

/**
 * Agreement of two yes/no raters over pairs `[first, second]`: the 2×2 table, exact agreement and
 * Cohen's kappa, κ = (p_o − p_e)/(1 − p_e) with p_e = (p₁ p₂ + (1 − p₁)(1 − p₂)). Kappa is
 * undefined when p_e = 1 (both raters said the same one thing for every item) and given no value
 * when one rater said the same thing for every item (κ is then 0 whatever the other said).
 */
export function binaryAgreement(pairs: readonly (readonly [boolean, boolean])[]): BinaryAgreement {
  let both = 0;
  let firstOnly = 0;
  let secondOnly = 0;
  let neither = 0;
  for (const [a, b] of pairs) {
    if (a && b) both += 1;
    else if (a) firstOnly += 1;
    else if (b) secondOnly += 1;
    else neither += 1;
  }
  const n = pairs.length;
  const table = { both, firstOnly, secondOnly, neither };
  if (n === 0) return { n, table, exact: null, kappa: null, kappaNote: 'undefined: no items' };
  const observed = (both + neither) / n;
  const firstYes = (both + firstOnly) / n;
  const secondYes = (both + secondOnly) / n;
  const expected = firstYes * secondYes + (1 - firstYes) * (1 - secondYes);
  if (1 - expected <= 1e-12) return { n, table, exact: observed, kappa: null, kappaNote: KAPPA_UNDEFINED_NO_VARIATION };
  if (firstYes === 0 || firstYes === 1 || secondYes === 0 || secondYes === 1) return { n, table, exact: observed, kappa: null, kappaNote: KAPPA_UNDEFINED_ONE_RATER_CONSTANT };
  return { n, table, exact: observed, kappa: (observed - expected) / (1 - expected) };
}
