import { wilsonInterval, Z_95, type Interval } from './intervals.js';

/**
 * The same items decided twice (first: run A, second: run B), as a paired 2×2 table. Only items
 * with a pass or a fail on both sides belong in it: no verdicts and errors are counted elsewhere.
 */
export interface PairedTable {
  /** Passed both times. */
  readonly both: number;
  /** Passed the first time only (A pass, B fail). */
  readonly firstOnly: number;
  /** Passed the second time only (A fail, B pass). */
  readonly secondOnly: number;
  /** Failed both times. */
  readonly neither: number;
}

export interface PairedProportionDifference {
  /** Items in the table. */
  readonly n: number;
  /** Pass rate the first time, (both + firstOnly) / n; null when n is 0. */
  readonly first: number | null;
  /** Pass rate the second time, (both + secondOnly) / n; null when n is 0. */
  readonly second: number | null;
  /** second − first = (secondOnly − firstOnly) / n; null when n is 0. */
  readonly difference: number | null;
  /** 95% interval of the difference (Newcombe's method 10); null when n is 0. */
  readonly interval: Interval | null;
}

/**
 * The difference between two pass rates measured on the same items, with a 95% interval by
 * Newcombe's method 10: R. G. Newcombe, "Improved confidence intervals for the difference
 * between binomial proportions based on paired data", Statistics in Medicine 17 (1998)
 * 2635–2650 — the hybrid score ("square-and-add") interval built from the two Wilson intervals
 * and the phi correlation of the pairs. Chosen over the Wald interval because it stays inside
 * [−1, 1] and keeps its coverage with few discordant pairs and rates near 0 or 1 (where
 * before/after comparisons of one model often sit); over Tango's score interval because it is
 * closed-form. Phi is corrected as Newcombe does (a positive ad − bc reduced by n/2, not below
 * 0); a margin of zero (all items pass, or all fail, on one side) makes phi 0. Checked against
 * Newcombe's worked examples (unit tests).
 *
 * @throws RangeError when a count is not a non-negative integer.
 */
export function pairedProportionDifference(table: PairedTable, z: number = Z_95): PairedProportionDifference {
  const { both, firstOnly, secondOnly, neither } = table;
  for (const count of [both, firstOnly, secondOnly, neither]) {
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`pairedProportionDifference: counts must be integers ≥ 0, got ${JSON.stringify(table)}`);
  }
  const n = both + firstOnly + secondOnly + neither;
  if (n === 0) return { n, first: null, second: null, difference: null, interval: null };
  const passedFirst = both + firstOnly;
  const passedSecond = both + secondOnly;
  const p1 = passedFirst / n;
  const p2 = passedSecond / n;
  const w1 = wilsonInterval(passedFirst, n, z) as Interval;
  const w2 = wilsonInterval(passedSecond, n, z) as Interval;
  const phi = correctedPhi(table, n);
  const difference = p2 - p1;
  // Newcombe writes θ = p1 − p2; here the difference is second − first, so the roles of the two
  // Wilson intervals swap: the lower limit takes p2's distance to its lower bound and p1's to its upper.
  const down2 = p2 - w2.low;
  const up1 = w1.high - p1;
  const up2 = w2.high - p2;
  const down1 = p1 - w1.low;
  const low = difference - Math.sqrt(Math.max(0, down2 * down2 - 2 * phi * down2 * up1 + up1 * up1));
  const high = difference + Math.sqrt(Math.max(0, up2 * up2 - 2 * phi * up2 * down1 + down1 * down1));
  return { n, first: p1, second: p2, difference, interval: { low: Math.max(-1, low), high: Math.min(1, high) } };
}

/**
 * Phi, the correlation of the paired outcomes, as Newcombe (1998) uses it: (ad − bc) / √(product
 * of the margins), where a positive ad − bc is first reduced by n/2 (not below 0) and a negative
 * one is kept; 0 when a margin is empty.
 */
function correctedPhi(table: PairedTable, n: number): number {
  const { both, firstOnly, secondOnly, neither } = table;
  const margins = (both + firstOnly) * (secondOnly + neither) * (both + secondOnly) * (firstOnly + neither);
  if (margins === 0) return 0;
  const cross = both * neither - firstOnly * secondOnly;
  const corrected = cross > n / 2 ? cross - n / 2 : cross >= 0 ? 0 : cross;
  return corrected / Math.sqrt(margins);
}
