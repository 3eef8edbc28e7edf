/**
 * One conversation's severity from a judge's repeated readings (`--judge-repeats R`): the
 * judge is asked R times because one reading wanders; the median is the value, and how far the
 * readings spread and how many agree with it are kept beside it so an unstable judgment shows.
 */
export interface SeverityVerdict {
  /**
   * The median of the readable repeats; with an even count, the **lower** median (the smaller of
   * the two middle values), so the value is always one of the judge's own readings and on the
   * scale — never a half level such as 2.5, which no guideline level defines. `null` = no
   * verdict (no readable repeat).
   */
  readonly value: number | null;
  /** max − min of the readable repeats (0 = all agree); null without a verdict. */
  readonly spread: number | null;
  /** Share of readable repeats equal to `value`; null without a verdict. */
  readonly agreement: number | null;
  readonly readable: number;
  /** Repeats without a severity (unparseable, off the scale): outside every statistic above. */
  readonly unreadable: number;
}

/**
 * Aggregates a judge's repeated severities for one conversation.
 * @param repeats one entry per repeat: the severity read, or null when the answer was unreadable.
 * @param scale when given, a severity that is not an integer from `min` to `max` counts as unreadable.
 */
export function aggregateSeverity(repeats: readonly (number | null)[], scale?: { readonly min: number; readonly max: number }): SeverityVerdict {
  const readable = repeats
    .filter((value): value is number => value !== null && Number.isFinite(value) && (!scale || (Number.isInteger(value) && value >= scale.min && value <= scale.max)))
    .sort((a, b) => a - b);
  const unreadable = repeats.length - readable.length;
  if (readable.length === 0) return { value: null, spread: null, agreement: null, readable: 0, unreadable };
  const value = readable[Math.floor((readable.length - 1) / 2)] as number;
  const spread = (readable.at(-1) as number) - (readable[0] as number);
  const agreement = readable.filter((v) => v === value).length / readable.length;
  return { value, spread, agreement, readable: readable.length, unreadable };
}
