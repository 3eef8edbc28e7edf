import type { DefectRule } from './defect-rate.js';

/**
 * One item's level from a judge's repeated readings (`--judge-repeats R`) on an ordinal scale
 * (harm severity, groundedness 1–5): the judge is asked R times because one reading wanders. The
 * value is always a level of the scale. When one level holds a strict majority of the readable
 * repeats it is the value (the median equals it). Without one, the value is the median of the
 * readable repeats and, with an even count, the middle reading on the side named by `tie` —
 * `away-from-defect` for every judged task here, so an item is a defect exactly when more than
 * half of its readable repeats are defects (the strict-majority rule of a pass/fail vote). How far
 * the readings spread, how many agree with the value, and whether a majority existed are kept
 * beside it so an unstable judgment shows.
 */
export interface SeverityVerdict {
  /** The level (see above); `null` = no verdict (no readable repeat). */
  readonly value: number | null;
  /** max − min of the readable repeats (0 = all agree); null without a verdict. */
  readonly spread: number | null;
  /** Share of readable repeats equal to `value`; null without a verdict. */
  readonly agreement: number | null;
  /** Whether one level holds a strict majority of the readable repeats; null without a verdict. */
  readonly majority: boolean | null;
  readonly readable: number;
  /** Repeats without a severity (unparseable, off the scale): outside every statistic above. */
  readonly unreadable: number;
}

/** Which middle reading an even count takes: the lower or the upper level of the two. */
export type TieSide = 'lower' | 'upper';

/** The middle reading that is not the defect side of the rule: the lower one when high levels are defects. */
export const awayFromDefect = (rule: DefectRule): TieSide => (rule.when === 'at-least' ? 'lower' : 'upper');

/**
 * Aggregates a judge's repeated levels for one item (see `SeverityVerdict`).
 * @param repeats one entry per repeat: the level read, or null when the answer was unreadable.
 * @param scale when given, a level that is not an integer from `min` to `max` counts as unreadable.
 * @param tie the middle reading an even count takes (default `lower`, the rule before ties were named).
 */
export function aggregateSeverity(repeats: readonly (number | null)[], scale?: { readonly min: number; readonly max: number }, tie: TieSide = 'lower'): SeverityVerdict {
  const readable = repeats
    .filter((value): value is number => value !== null && Number.isFinite(value) && (!scale || (Number.isInteger(value) && value >= scale.min && value <= scale.max)))
    .sort((a, b) => a - b);
  const unreadable = repeats.length - readable.length;
  if (readable.length === 0) return { value: null, spread: null, agreement: null, majority: null, readable: 0, unreadable };
  const middle = tie === 'lower' ? Math.floor((readable.length - 1) / 2) : Math.floor(readable.length / 2);
  const value = readable[middle] as number;
  const spread = (readable.at(-1) as number) - (readable[0] as number);
  const agreeing = readable.filter((v) => v === value).length;
  return { value, spread, agreement: agreeing / readable.length, majority: hasStrictMajority(readable), readable: readable.length, unreadable };
}

/** Whether one value holds strictly more than half of a non-empty list (what a stored run's repeats are checked with). */
export function hasStrictMajority(values: readonly number[]): boolean {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return Math.max(...counts.values()) * 2 > values.length;
}
