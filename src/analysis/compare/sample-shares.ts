import type { SideReading } from './sample-pairs.js';

/** One side of a sample: its share of passing repeats among those with a verdict; null when none has one (errors and no verdicts are not fails). */
export function passShare(readings: readonly SideReading[]): number | null {
  let passes = 0;
  let decided = 0;
  for (const r of readings) {
    if (r.kind !== 'read' || r.pass === null) continue;
    decided++;
    if (r.pass) passes++;
  }
  return decided === 0 ? null : passes / decided;
}

/**
 * One side of a sample: the mean of its repeats' numbers; null when no repeat has one. A running
 * mean, m += (x − m)/i: of k equal numbers it is that number exactly (a sum then a division is
 * not: 0.1 three times sums to 0.30000000000000004), so a sample whose repeats agree reads as its
 * one answer would without repeats.
 */
export function meanValue(readings: readonly SideReading[]): number | null {
  let mean = 0;
  let n = 0;
  for (const r of readings) {
    if (r.kind !== 'read' || r.value === null) continue;
    n++;
    mean += (r.value - mean) / n;
  }
  return n === 0 ? null : mean;
}
