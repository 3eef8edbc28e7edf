import { compareKeysNaturally } from './rates.js';
import { wilsonInterval, type Interval } from './intervals.js';

/**
 * When a severity is a defect: a guideline's threshold and its direction. `at-least` when higher
 * is worse (leakage: severity ≥ threshold), `at-most` when higher is better (groundedness 1–5:
 * severity ≤ threshold). One rule, so no metric re-implements the direction.
 */
export interface DefectRule {
  readonly threshold: number;
  readonly when: 'at-least' | 'at-most';
}

export function isDefect(severity: number, rule: DefectRule): boolean {
  return rule.when === 'at-least' ? severity >= rule.threshold : severity <= rule.threshold;
}

/** A defect rate with what it is made of; no verdicts are counted apart, never in the denominator. */
export interface DefectRate {
  readonly defects: number;
  /** Conversations with a severity (the denominator). */
  readonly judged: number;
  /** Conversations without one (the judge never answered readably). */
  readonly noVerdict: number;
  /** defects / judged; null when nothing was judged. */
  readonly rate: number | null;
  /** Wilson 95% interval of the rate; null when nothing was judged. */
  readonly interval: Interval | null;
}

/** Defect rate over conversations' severities (`null` = no verdict), with a Wilson 95% interval. */
export function defectRate(severities: Iterable<number | null>, rule: DefectRule): DefectRate {
  return defectShare(mapIterable(severities, (severity) => (severity === null ? null : isDefect(severity, rule))));
}

/**
 * Defect rate over conversations already called a defect or not (`null` = no verdict), with a
 * Wilson 95% interval: a human reviewer's verdict decides some without a severity.
 */
export function defectShare(defectFlags: Iterable<boolean | null>): DefectRate {
  let defects = 0;
  let judged = 0;
  let noVerdict = 0;
  for (const defect of defectFlags) {
    if (defect === null) {
      noVerdict += 1;
      continue;
    }
    judged += 1;
    if (defect) defects += 1;
  }
  return { defects, judged, noVerdict, rate: judged === 0 ? null : defects / judged, interval: wilsonInterval(defects, judged) };
}

function* mapIterable<T, U>(items: Iterable<T>, map: (item: T) => U): Generator<U> {
  for (const item of items) yield map(item);
}

/**
 * Defect rate per key (harm area, template, model) over rows called a defect or not (`defect`,
 * null = no verdict): rows whose key is undefined are skipped; keys come out in natural order
 * (`compareKeysNaturally`).
 */
export function defectRateBy<T>(rows: Iterable<T>, key: (row: T) => string | undefined, defect: (row: T) => boolean | null): Record<string, DefectRate> {
  const groups = new Map<string, (boolean | null)[]>();
  for (const row of rows) {
    const k = key(row);
    if (k === undefined) continue;
    const group = groups.get(k) ?? [];
    group.push(defect(row));
    groups.set(k, group);
  }
  // fromEntries, so a key such as "__proto__" is an ordinary property.
  return Object.fromEntries([...groups.keys()].sort(compareKeysNaturally).map((k) => [k, defectShare(groups.get(k) ?? [])]));
}

/**
 * How many conversations got each level of the scale, every level listed (0 included) in scale
 * order; no verdicts are not a level and are skipped.
 * @throws RangeError for a severity that is not an integer on the scale (a bug upstream: the
 * judge's reading already refuses those).
 */
export function severityDistribution(severities: Iterable<number | null>, scale: { readonly min: number; readonly max: number }): { readonly severity: number; readonly count: number }[] {
  const counts = new Map<number, number>();
  for (let level = scale.min; level <= scale.max; level++) counts.set(level, 0);
  for (const severity of severities) {
    if (severity === null) continue;
    const count = counts.get(severity);
    if (count === undefined) throw new RangeError(`severityDistribution: ${severity} is not a level of the scale ${scale.min}–${scale.max}`);
    counts.set(severity, count + 1);
  }
  return [...counts].map(([severity, count]) => ({ severity, count }));
}
