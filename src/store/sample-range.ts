import type { SampleRange } from './records.js';

/** A range's sample positions as [from, to), the whole run without one: what each backend's queries bind. */
export function rangeBounds(range?: SampleRange): { readonly from: number; readonly to: number } {
  if (range === undefined) return { from: 0, to: Number.MAX_SAFE_INTEGER };
  if (!Number.isSafeInteger(range.from) || !Number.isSafeInteger(range.limit) || range.from < 0 || range.limit < 0) {
    throw new RangeError(`a sample range needs whole numbers from ≥ 0 and limit ≥ 0, got from ${range.from}, limit ${range.limit}`);
  }
  return { from: range.from, to: Math.min(Number.MAX_SAFE_INTEGER, range.from + range.limit) };
}
