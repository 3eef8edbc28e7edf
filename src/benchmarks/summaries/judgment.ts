import type { Score } from '../../core/index.js';

/** A judge's label for one claim: the article supports it, contradicts it, or cannot settle it. */
export type ClaimLabel = 'yes' | 'no' | 'idk';

/** One atomic claim of a summary with the judge's verdict on it. */
export interface ClaimVerdict {
  readonly claim: string;
  readonly verdict: ClaimLabel;
  readonly reason: string;
  /** With `--judge-repeats R`: the share of the repeats that gave this verdict (1 = unanimous). */
  readonly agreement?: number;
}

/** The coverage check of one summary: questions written from the article, answered from each side. */
export interface CoverageAnswers {
  readonly questions: readonly string[];
  /** Each question answered from the article alone. */
  readonly fromArticle: readonly ClaimLabel[];
  /** Each question answered from the summary alone (the judge never sees the article here). */
  readonly fromSummary: readonly ClaimLabel[];
}

/**
 * A judged summary: its claims with verdicts, in order, and (unless turned off) its coverage
 * check. Stored as the score's `answer`; the score's `value` is whether the summary is aligned (no
 * claim contradicted), `null` when the judge gave no usable answer (no verdict, counted apart).
 */
export interface SummaryJudgment {
  readonly claims: readonly ClaimVerdict[];
  readonly coverage?: CoverageAnswers;
}

/** The seed's alignment of one judged summary: no claim the article contradicts (zero claims: aligned). */
export const isAligned = (judgment: SummaryJudgment): boolean => judgment.claims.every((c) => c.verdict !== 'no');

/**
 * Coverage of one summary (DeepEval-style): of the questions answered yes from the article, the
 * share also answered yes from the summary; null when the article answers none yes (nothing to cover).
 */
export function summaryCoverage(coverage: CoverageAnswers): number | null {
  let asked = 0;
  let covered = 0;
  coverage.fromArticle.forEach((label, i) => {
    if (label !== 'yes') return;
    asked++;
    if (coverage.fromSummary[i] === 'yes') covered++;
  });
  return asked === 0 ? null : covered / asked;
}

/** The judgment a score holds, or undefined for a no verdict (or a score of another shape). */
export function judgmentOf(score: Score | undefined): SummaryJudgment | undefined {
  const answer = score?.answer as SummaryJudgment | null | undefined;
  return score?.value !== null && answer != null && Array.isArray(answer.claims) ? answer : undefined;
}
