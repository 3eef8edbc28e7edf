import { ratio } from '../../metrics/rates.js';
import { differingRows } from '../reading-rows.js';
import type { JudgedReadings, Metrics, MetricsContext, ScoredSample } from '../task.js';
import { coverageAsked, summariesMetrics } from './metrics.js';
import { coverageOf, isAligned, isAlignedBySeed, judgmentOf, type CoverageAnswers, type SummaryJudgment } from './judgment.js';

/** DeepEval's pass mark for its summarization score (`SummarizationMetric(threshold=0.5)`, `BaseMetric.is_successful`: score ≥ threshold). */
export const DEEPEVAL_THRESHOLD = 0.5;

/** DeepEval's alignment of one summary (`SummarizationMetric._calculate_score`, ALIGNMENT): yes / all verdicts; no verdicts → 0. */
export function deepevalAlignment(j: SummaryJudgment): number {
  return j.claims.length === 0 ? 0 : j.claims.filter((c) => c.verdict === 'yes').length / j.claims.length;
}

/** DeepEval's faithfulness of one output (`FaithfulnessMetric._calculate_score`): non-"no" / all verdicts; no verdicts → 1. */
export function deepevalFaithfulness(j: SummaryJudgment): number {
  return j.claims.length === 0 ? 1 : j.claims.filter((c) => c.verdict !== 'no').length / j.claims.length;
}

/**
 * DeepEval's coverage of one summary (`SummarizationMetric._calculate_score`, COVERAGE): of the
 * questions the article answers yes, the share the summary answers yes; none answered yes → 0
 * (assay's `coverage` leaves such a summary out).
 */
export function deepevalCoverage(c: CoverageAnswers): number {
  let asked = 0;
  let covered = 0;
  c.fromArticle.forEach((label, i) => {
    if (label !== 'yes') return;
    asked++;
    if (c.fromSummary[i] === 'yes') covered++;
  });
  return asked === 0 ? 0 : covered / asked;
}

const mean = (values: readonly number[]): number | null => ratio(values.reduce((n, v) => n + v, 0), values.length);

// The headline figures of assay's own reading (its intervals and categories are in `assay show`).
const ASSAY_KEYS = ['alignment', 'claim_support', 'idk_rate', 'richness', 'coverage', 'empty_summaries', 'judged', 'no_verdict', 'n', 'coverage_no_verdict', 'errors'];

function read(rows: readonly ScoredSample[], context: MetricsContext): { metrics: Record<string, Metrics>; differing: number } {
  const own = summariesMetrics(rows, context);
  const assay = Object.fromEntries(ASSAY_KEYS.filter((k) => k in own).map((k) => [k, own[k] ?? null]));
  const judgments: SummaryJudgment[] = [];
  const coverages: number[] = [];
  const scores: number[] = [];
  const verdicts: (boolean | null)[][] = [];
  let errors = 0;
  for (const row of rows) {
    if (row.score === undefined) {
      errors++;
      continue;
    }
    const j = judgmentOf(row.score);
    const c = coverageOf(row.score);
    if (j) judgments.push(j);
    if (c) coverages.push(deepevalCoverage(c));
    // DeepEval's score needs both sides; with coverage turned off it has none.
    const score = j && c ? Math.min(deepevalAlignment(j), deepevalCoverage(c)) : null;
    if (score !== null) scores.push(score);
    verdicts.push([j ? isAligned(j) : null, j ? isAlignedBySeed(j) : null, score === null ? null : score >= DEEPEVAL_THRESHOLD]);
  }
  const seedAligned = judgments.filter(isAlignedBySeed).length;
  const seed: Metrics = {
    alignment: ratio(seedAligned, judgments.length),
    claim_support: own['claim_support'] ?? null,
    richness: own['richness'] ?? null,
    empty_summaries: judgments.filter((j) => j.claims.length === 0).length,
    judged: judgments.length,
    errors,
  };
  const deepeval: Metrics = {
    alignment: mean(judgments.map(deepevalAlignment)),
    faithfulness: mean(judgments.map(deepevalFaithfulness)),
    coverage: coverageAsked(context) ? mean(coverages) : null,
    score: mean(scores),
    pass_rate: ratio(scores.filter((s) => s >= DEEPEVAL_THRESHOLD).length, scores.length),
    judged: judgments.length,
    scored: scores.length,
    errors,
  };
  return { metrics: { assay, seed, deepeval }, differing: differingRows(verdicts) };
}

/**
 * Judged summaries read three ways from the same stored judgments: assay's default, the seed's
 * literal alignment, and DeepEval's summarization and faithfulness metrics (read from
 * confident-ai/deepeval, `deepeval/metrics/summarization/summarization.py` and
 * `deepeval/metrics/faithfulness/faithfulness.py`).
 */
export const SUMMARIES_READINGS: JudgedReadings = {
  names: ['assay', 'seed', 'deepeval'],
  declarations: [
    { name: 'faithfulness', unit: 'share', direction: 'higher', interval: 'none', meaning: 'DeepEval: mean over summaries of non-"no" verdicts / all verdicts (no claim: 1)' },
    { name: 'score', unit: 'share', direction: 'higher', interval: 'none', meaning: 'DeepEval: mean over summaries of min(alignment, coverage)' },
    { name: 'pass_rate', unit: 'share', direction: 'higher', interval: 'none', meaning: 'DeepEval: share of summaries whose score is at least 0.5' },
    { name: 'scored', unit: 'count', direction: 'none', interval: 'none', meaning: 'DeepEval: summaries with both alignment and coverage (the denominator of score and pass_rate)' },
  ],
  notes: [
    'assay: alignment = judged summaries with at least one claim and none contradicted / judged; claim_support and idk_rate are POOLED ratios (all yes or idk verdicts / all verdicts, over every summary), not per-summary means; coverage leaves out summaries whose article answers no question yes',
    'seed (Chrome for Developers, summarization with an LLM judge): alignment = judged summaries with no contradicted claim / judged — a summary with no claim (an empty answer) counts as aligned',
    'deepeval alignment: mean over summaries of yes / all verdicts, a summary with no claim scoring 0 (summarization.py, SummarizationMetric._calculate_score, ALIGNMENT; "idk" counts against)',
    'deepeval faithfulness: mean over summaries of non-"no" / all verdicts, a summary with no claim scoring 1 (faithfulness.py, FaithfulnessMetric._calculate_score, penalize_ambiguous_claims off)',
    'deepeval coverage: mean over summaries of summary-yes / article-yes questions, none answered yes from the article scoring 0 (SummarizationMetric._calculate_score, COVERAGE)',
    `deepeval score: mean over summaries of min(alignment, coverage) (SummarizationMetric.a_measure); pass_rate: share with that score ≥ ${DEEPEVAL_THRESHOLD} (threshold=0.5, BaseMetric.is_successful); scored: summaries with both sides`,
    'all readings: the judge\'s stored answers, human reviews not applied; no verdicts and errors are outside every denominator',
  ],
  read,
};
