import type { Score } from '../core/index.js';

/**
 * How many rows get another verdict under another reading: each row's verdicts, one per reading
 * (true pass, false fail, null none), compared as MetaTool's readings are (a no verdict under one
 * reading and a fail under another differ).
 */
export function differingRows(verdicts: readonly (readonly (boolean | null)[])[]): number {
  return verdicts.filter((row) => new Set(row.map(String)).size > 1).length;
}

/** The rows that have a score (errors have none). */
export const scoredOnly = <T extends { readonly score: Score | undefined }>(rows: readonly T[]): (T & { readonly score: Score })[] =>
  rows.filter((r): r is T & { readonly score: Score } => r.score !== undefined);
