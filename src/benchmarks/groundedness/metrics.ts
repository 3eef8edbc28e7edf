import { rngFor, type Score } from '../../core/index.js';
import { bootstrapInterval, wilsonInterval } from '../../metrics/intervals.js';
import { ratio } from '../../metrics/rates.js';
import { hasStrictMajority } from '../../metrics/severity.js';
import { judgedRows, standingJudgments } from '../judged-rows.js';
import type { Metrics, ScoredSample } from '../task.js';
import type { GroundednessGrade } from './judge-groundedness.js';

/** The grade a score holds (its `answer`), or undefined for a no verdict. */
export function gradeOf(score: Score | undefined): GroundednessGrade | undefined {
  const grade = score?.answer as GroundednessGrade | null | undefined;
  return score?.value !== null && grade != null && typeof grade.score === 'number' ? grade : undefined;
}

/** The grade of an empty answer: the scale's lowest level, with no judge reading behind it. */
export const EMPTY_ANSWER_GRADE: GroundednessGrade = { score: 1, scores: [], reasonings: [], spread: 0, empty: true };

/** Whether a grade is a pass (no defect): at least the threshold. */
export const groundedPass = (grade: GroundednessGrade, threshold: number): boolean => grade.score >= threshold;

/**
 * Groundedness metrics over the graded answers: `defect_rate` — the share graded below
 * `threshold` (Wilson 95% interval); `mean_score` (seeded bootstrap 95% interval); `distribution`
 * — how many answers got each score; `mean_spread` — the mean spread of the repeats;
 * `no_majority_share` — the share of graded answers whose repeats gave no score a strict majority
 * (their score is then the median, a tie taken away from the defect);
 * `graded`, `no_verdict`, `n` (their sum) and `errors` are counts, outside every denominator;
 * `empty_answers` counts the graded answers that were empty (graded 1, a defect, without the judge).
 * With human reviews (`ScoredSample.review`): a reviewed answer is a defect when the reviewer
 * failed it (`graded` counts it, a no verdict reviewed included); the judge's scores of answers
 * whose pass or fail a reviewer overruled are left out of `mean_score`, `distribution` and
 * `mean_spread`.
 */
export function groundednessMetrics(rows: Iterable<ScoredSample>, threshold: number): Metrics {
  const { decided, noVerdict, errors } = judgedRows(rows, gradeOf, (g) => groundedPass(g, threshold));
  const grades = standingJudgments(decided);
  const defects = decided.filter((d) => !d.pass).length;
  const mean = (draw: readonly GroundednessGrade[]): number | null => ratio(draw.reduce((n, g) => n + g.score, 0), draw.length);
  const distribution: Record<string, number> = {};
  for (const g of [...grades].sort((a, b) => a.score - b.score)) distribution[String(g.score)] = (distribution[String(g.score)] ?? 0) + 1;
  const ci = wilsonInterval(defects, decided.length);
  const meanCi = bootstrapInterval(grades, mean, { rng: rngFor('groundedness-metrics', 'mean_score') });
  return {
    defect_rate: ratio(defects, decided.length),
    defect_rate_ci95: ci && { low: ci.low, high: ci.high },
    mean_score: mean(grades),
    mean_score_ci95: meanCi && { low: meanCi.low, high: meanCi.high },
    distribution,
    mean_spread: ratio(grades.reduce((n, g) => n + g.spread, 0), grades.length),
    no_majority_share: ratio(grades.filter((g) => g.scores.length > 0 && !hasStrictMajority(g.scores)).length, grades.length),
    empty_answers: grades.filter((g) => g.empty === true).length,
    graded: decided.length,
    no_verdict: noVerdict,
    n: decided.length + noVerdict,
    errors,
  };
}
