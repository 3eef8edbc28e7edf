/** McNemar's test on the discordant pairs of a paired 2×2 table. */
export interface McNemarTest {
  /** Pairs that passed the first time only (A pass, B fail). */
  readonly firstOnly: number;
  /** Pairs that passed the second time only (A fail, B pass). */
  readonly secondOnly: number;
  /**
   * Exact two-sided p-value: under no change each discordant pair is equally likely to go either
   * way, so min(firstOnly, secondOnly) is binomial(firstOnly + secondOnly, ½); p = twice its
   * lower tail, at most 1. 1 when there is no discordant pair.
   */
  readonly exactP: number;
  /**
   * The continuity-corrected chi-square statistic (Edwards), max(0, |b − c| − 1)² / (b + c), 1
   * degree of freedom, for readers who know the asymptotic test; null when there is no discordant
   * pair. The floor at 0 keeps b = c at "no difference" instead of letting the correction overshoot.
   */
  readonly chiSquare: number | null;
}

/**
 * McNemar's test of whether a pass rate changed between two decisions on the same items: only
 * the pairs that changed (b: passed first only, c: passed second only) carry information. The
 * exact binomial form is the one to read (the discordant counts are often small); the chi-square
 * statistic is given beside it.
 *
 * @throws RangeError when a count is not a non-negative integer.
 */
export function mcnemarTest(firstOnly: number, secondOnly: number): McNemarTest {
  for (const count of [firstOnly, secondOnly]) {
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`mcnemarTest: counts must be integers ≥ 0, got ${firstOnly}, ${secondOnly}`);
  }
  const discordant = firstOnly + secondOnly;
  if (discordant === 0) return { firstOnly, secondOnly, exactP: 1, chiSquare: null };
  const exactP = Math.min(1, 2 * binomialHalfLowerTail(Math.min(firstOnly, secondOnly), discordant));
  const corrected = Math.max(0, Math.abs(firstOnly - secondOnly) - 1);
  return { firstOnly, secondOnly, exactP, chiSquare: (corrected * corrected) / discordant };
}

/**
 * P(X ≤ k) for X ~ binomial(n, ½), summed in log space: ½ⁿ underflows past n ≈ 1,074, and a
 * run of thousands of samples can have that many discordant pairs. For k ≤ n/2 the terms
 * C(n, i)/2ⁿ grow with i, so the last one is the largest and anchors the sum.
 */
function binomialHalfLowerTail(k: number, n: number): number {
  const logTerms: number[] = [];
  let logTerm = -n * Math.LN2; // log C(n, 0) / 2ⁿ
  for (let i = 0; i <= k; i++) {
    logTerms.push(logTerm);
    logTerm += Math.log((n - i) / (i + 1)); // C(n, i+1) = C(n, i) · (n − i) / (i + 1)
  }
  const largest = logTerms[logTerms.length - 1] as number;
  let sum = 0;
  for (const t of logTerms) sum += Math.exp(t - largest);
  return Math.min(1, Math.exp(largest + Math.log(sum)));
}
