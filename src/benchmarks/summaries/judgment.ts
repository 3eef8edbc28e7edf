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
 * check. Stored as the score's `answer`; the score's `value` is whether the summary is aligned
 * ({@link isAligned}), `null` when the claims or their verdicts gave no usable answer (alignment
 * no verdict, counted apart). Each metric is decided by the steps it needs: a coverage step with
 * no usable answer leaves the claims standing (`coverageNoVerdict`), and claims with no usable
 * answer leave a usable coverage check standing (`claims: null`, the score's value null).
 */
export interface SummaryJudgment {
  readonly claims: readonly ClaimVerdict[];
  readonly coverage?: CoverageAnswers;
  /** Why the coverage step gave no usable answer: coverage is no verdict for this summary, its claims stand. */
  readonly coverageNoVerdict?: string;
  /** The summary was empty (no text, or only white space): no claims call was made; it fails alignment. */
  readonly empty?: true;
}

/** What a no-verdict summary's score holds when its coverage check was usable: coverage decided, alignment not. */
export interface CoverageOnly {
  readonly claims: null;
  readonly coverage: CoverageAnswers;
}

/**
 * assay's alignment of one judged summary: at least one claim, and no claim the article
 * contradicts. The seed's definition ("no contradicted claim") would call a summary with no claim
 * aligned; an empty answer is not a perfect one, so it fails here (DeepEval's alignment scores it
 * 0, `SummarizationMetric._calculate_score`). `isAlignedBySeed` keeps the seed's literal reading.
 */
export const isAligned = (judgment: SummaryJudgment): boolean => judgment.claims.length > 0 && isAlignedBySeed(judgment);

/** The seed's literal alignment: no claim the article contradicts (zero claims: aligned). */
export const isAlignedBySeed = (judgment: SummaryJudgment): boolean => judgment.claims.every((c) => c.verdict !== 'no');

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

/** The judgment a score holds, or undefined for an alignment no verdict (or a score of another shape). */
export function judgmentOf(score: Score | undefined): SummaryJudgment | undefined {
  const answer = score?.answer as SummaryJudgment | null | undefined;
  return score?.value !== null && answer != null && Array.isArray(answer.claims) ? answer : undefined;
}

/**
 * The coverage check a score holds, whatever its alignment (a summary whose claims gave no usable
 * answer may still have one); undefined when it has none (coverage off, or no usable answer).
 */
export function coverageOf(score: Score | undefined): CoverageAnswers | undefined {
  const answer = score?.answer as Partial<SummaryJudgment> | null | undefined;
  const coverage = answer != null && typeof answer === 'object' ? answer.coverage : undefined;
  return coverage != null && Array.isArray(coverage.fromArticle) && Array.isArray(coverage.fromSummary) ? coverage : undefined;
}

/** A score's coverage ({@link summaryCoverage}); null without a usable coverage check or an article-answerable question. */
export function coverageValueOf(score: Score | undefined): number | null {
  const coverage = coverageOf(score);
  return coverage ? summaryCoverage(coverage) : null;
}
