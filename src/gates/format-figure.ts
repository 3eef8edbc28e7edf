import type { Interval } from '../metrics/intervals.js';

/**
 * A gate's figure as every output writes it: a share as a percentage with one decimal (the unit
 * thresholds are thought in), anything else with up to four decimals. Null is "no value".
 */
export function formatFigure(value: number | null, unit?: string, signed = false): string {
  if (value === null || !Number.isFinite(value)) return 'no value';
  const sign = signed && value > 0 ? '+' : '';
  if (unit === 'share') return `${sign}${(value * 100).toFixed(1)}%`;
  return `${sign}${Number(value.toFixed(4))}`;
}

/** `[low, high]` in the figure's unit, or `no interval`. */
export function formatInterval(interval: Interval | null, unit?: string, signed = false): string {
  if (interval === null) return 'no interval';
  return `[${formatFigure(interval.low, unit, signed)}, ${formatFigure(interval.high, unit, signed)}]`;
}
