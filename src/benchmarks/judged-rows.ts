import type { Score } from '../core/index.js';
import type { ScoredSample } from './task.js';

/**
 * Splits the rows of a model-graded task: the judgments `read` finds in the scores, the rows the
 * judge gave no usable answer for (no verdict), and the rows that ended in error (no score) — the
 * last two counted apart, outside every denominator.
 */
export function judgedRows<T>(rows: Iterable<ScoredSample>, read: (score: Score) => T | undefined): { readonly judged: T[]; readonly noVerdict: number; readonly errors: number } {
  const judged: T[] = [];
  let noVerdict = 0;
  let errors = 0;
  for (const row of rows) {
    if (row.score === undefined) {
      errors++;
      continue;
    }
    const judgment = read(row.score);
    if (judgment === undefined) noVerdict++;
    else judged.push(judgment);
  }
  return { judged, noVerdict, errors };
}
