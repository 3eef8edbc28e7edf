import { sampleWithoutReplacement, type Rng } from '../../../core/index.js';
import type { SelectQuestion } from './questions.js';

/** "yes" or "no", each with probability 1/2. */
export function randomYesNo(rng: Rng): string {
  return rng.next() < 0.5 ? 'yes' : 'no';
}

/**
 * A uniformly random answer among the allowed ones:
 * - one selection: each candidate, and "None" when allowed, with probability 1/(options);
 * - m ≥ 2 selections: with "None" allowed, first a count uniform in 0..m (capped at the number of
 *   candidates), then that many distinct candidates; without, exactly m distinct candidates.
 * Returns the chosen names, empty for "None".
 */
export function randomSelect(hints: SelectQuestion, rng: Rng): string[] {
  const names = hints.candidates.map((c) => c.name);
  const limit = Math.min(Math.max(0, hints.maxSelections), names.length);
  if (hints.maxSelections === 1) {
    const options = names.length + (hints.allowNone ? 1 : 0);
    if (options === 0) return [];
    const pick = names[rng.int(options)];
    return pick === undefined ? [] : [pick];
  }
  const count = hints.allowNone ? rng.int(limit + 1) : limit;
  return sampleWithoutReplacement(names, count, rng);
}
