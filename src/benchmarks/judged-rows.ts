import type { Score } from '../core/index.js';
import type { ScoredSample } from './task.js';

/** One decided row of a model-graded task: its pass or fail and, unless a reviewer overruled it, the judge's judgment. */
export interface DecidedRow<T> {
  /** The reviewer's verdict when the row has one (`ScoredSample.review`), else the judgment's. */
  readonly pass: boolean;
  /**
   * The judgment the judge gave; absent when a reviewer's verdict differs from its pass or fail
   * (or the judge gave none): its finer grading (a 1–5 grade, claims, a severity) was overruled,
   * so the figures made of it leave it out.
   */
  readonly judgment?: T;
}

/**
 * Splits the rows of a model-graded task: the rows decided pass or fail (by the judgment `read`
 * finds in the score, `passOf` telling its pass or fail, or by a reviewer's verdict, which wins),
 * the rows the judge gave no usable answer for and nobody reviewed (no verdict), and the rows
 * that ended in error (no score) — the last two counted apart, outside every denominator.
 */
export function judgedRows<T>(
  rows: Iterable<ScoredSample>,
  read: (score: Score) => T | undefined,
  passOf: (judgment: T) => boolean,
): { readonly decided: DecidedRow<T>[]; readonly noVerdict: number; readonly errors: number } {
  const decided: DecidedRow<T>[] = [];
  let noVerdict = 0;
  let errors = 0;
  for (const row of rows) {
    if (row.score === undefined) {
      errors++;
      continue;
    }
    const judgment = read(row.score);
    const judged = judgment === undefined ? undefined : passOf(judgment);
    if (row.review !== undefined) decided.push(row.review === judged ? { pass: row.review, judgment: judgment as T } : { pass: row.review });
    else if (judged === undefined) noVerdict++;
    else decided.push({ pass: judged, judgment: judgment as T });
  }
  return { decided, noVerdict, errors };
}

/** The judgments of decided rows that no reviewer overruled, in row order. */
export const standingJudgments = <T>(decided: readonly DecidedRow<T>[]): T[] => decided.flatMap((d) => (d.judgment === undefined ? [] : [d.judgment]));
