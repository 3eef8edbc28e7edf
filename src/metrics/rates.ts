import { wilsonInterval } from './intervals.js';

/**
 * `n / d`, or `null` when `d` is 0: an undefined rate is not zero (and never NaN).
 *
 * @throws RangeError when `n` or `d` is not a finite number (a bug upstream, not a rate).
 */
export function ratio(n: number, d: number): number | null {
  if (!Number.isFinite(n) || !Number.isFinite(d)) throw new RangeError(`ratio: expected finite numbers, got ${n}/${d}`);
  return d === 0 ? null : n / d;
}

/**
 * Share of rows where `hit` holds, per key (e.g. CSR per scenario, or per gold position). Rows
 * whose key is `undefined` are skipped. Every key present has at least one row, so its rate is a
 * number; the `null` in the type is for callers that add keys without rows.
 *
 * Keys come out in natural order (see {@link compareKeysNaturally}); the record is built in that
 * order. Caveat: JavaScript objects always list non-negative integer keys ("0", "2", "10") first,
 * in ascending order, so negative or decimal numeric keys ("-1", "2.5") appear after them
 * whatever order they were inserted in.
 */
export function rateBy<T>(rows: Iterable<T>, key: (row: T) => string | undefined, hit: (row: T) => boolean): Record<string, number | null> {
  const tally = new RateTally();
  for (const row of rows) {
    const k = key(row);
    if (k !== undefined) tally.add(k, hit(row));
  }
  return tally.rates();
}

/** {@link rateBy} a row at a time: each key's hits and total, kept until `rates`. */
export class RateTally {
  private readonly tally = new Map<string, { hits: number; total: number }>();

  /** A row under `key` (skipped when `undefined`), a hit or not. */
  add(key: string | undefined, hit: boolean): void {
    if (key === undefined) return;
    const entry = this.tally.get(key) ?? { hits: 0, total: 0 };
    entry.total += 1;
    if (hit) entry.hits += 1;
    this.tally.set(key, entry);
  }

  /** Each key's share of hits, keys in natural order (see {@link rateBy}). */
  rates(): Record<string, number | null> {
    const keys = [...this.tally.keys()].sort(compareKeysNaturally);
    // fromEntries (not assignment) so that a key such as "__proto__" becomes an ordinary property.
    return Object.fromEntries(keys.map((k) => {
      const entry = this.tally.get(k);
      return [k, entry ? ratio(entry.hits, entry.total) : null];
    }));
  }
}

const NUMERIC_KEY = /^-?\d+(?:\.\d+)?$/;
// A fixed locale, so that the order does not depend on the machine's settings. Made on the first
// comparison of two keys that are not numbers: a collator maps ~2 MB of ICU's collation data into
// the process, which a run whose breakdowns are all numeric (MetaTool's by position) never needs.
let alphabetical: Intl.Collator | undefined;
const ALPHABETICAL = { compare: (a: string, b: string): number => (alphabetical ??= new Intl.Collator('en')).compare(a, b) };

/**
 * Natural order of breakdown keys: numeric-looking keys ("2", "10", "-1", "2.5") first, by value
 * ("2" < "10"); then the others alphabetically (English collation, so "artists" < "Elders" <
 * "finance"), with code-unit order breaking ties.
 */
export function compareKeysNaturally(a: string, b: string): number {
  const aNumeric = NUMERIC_KEY.test(a);
  const bNumeric = NUMERIC_KEY.test(b);
  if (aNumeric && bNumeric) return Number(a) - Number(b) || codeUnitOrder(a, b);
  if (aNumeric !== bNumeric) return aNumeric ? -1 : 1;
  return ALPHABETICAL.compare(a, b) || codeUnitOrder(a, b);
}

function codeUnitOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A share `hits / n` and its Wilson 95% interval (`wilsonInterval`), keyed `<name>` and
 * `<name>_ci95` — how a task's metrics carry a metric's interval, the interval right after its
 * figure. Both null when `n` is 0.
 */
export function shareWithInterval(name: string, hits: number, n: number): Record<string, number | { readonly low: number; readonly high: number } | null> {
  const ci = wilsonInterval(hits, n);
  return { [name]: ratio(hits, n), [`${name}_ci95`]: ci && { low: ci.low, high: ci.high } };
}
