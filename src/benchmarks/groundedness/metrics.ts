import { rngFor, type Score } from '../../core/index.js';
import { bootstrapInterval, wilsonInterval } from '../../metrics/intervals.js';
import { ratio } from '../../metrics/rates.js';
import { judgedRows } from '../judged-rows.js';
import type { Metrics, ScoredSample } from '../task.js';
import type { GroundednessGrade } from './judge-groundedness.js';

/** The grade a score holds (its `answer`), or undefined for a no verdict. */
export function gradeOf(score: Score | undefined): GroundednessGrade | undefined {
  const grade = score?.answer as GroundednessGrade | undefined;
  return score?.value !== null && grade !== undefined && typeof grade.score === 'number' ? grade : undefined;
}

/**
 * Groundedness metrics over the graded answers: `defect_rate` — the share graded below
 * `threshold` (Wilson 95% interval); `mean_score` (seeded bootstrap 95% interval); `distribution`
 * — how many answers got each (median) score; `mean_spread` — the mean spread of the repeats;
 * `graded`, `no_verdict`, `n` (their sum) and `errors` are counts, outside every denominator.
 */
export function groundednessMetrics(rows: Iterable<ScoredSample>, threshold: number): Metrics {
  const { judged: grades, noVerdict, errors } = judgedRows(rows, gradeOf);
  const defects = grades.filter((g) => g.score < threshold).length;
  const mean = (draw: readonly GroundednessGrade[]): number | null => ratio(draw.reduce((n, g) => n + g.score, 0), draw.length);
  const distribution: Record<string, number> = {};
  for (const g of [...grades].sort((a, b) => a.score - b.score)) distribution[String(g.score)] = (distribution[String(g.score)] ?? 0) + 1;
  const ci = wilsonInterval(defects, grades.length);
  const meanCi = bootstrapInterval(grades, mean, { rng: rngFor('groundedness-metrics', 'mean_score') });
  return {
    defect_rate: ratio(defects, grades.length),
    defect_rate_ci95: ci && { low: ci.low, high: ci.high },
    mean_score: mean(grades),
    mean_score_ci95: meanCi && { low: meanCi.low, high: meanCi.high },
    distribution,
    mean_spread: ratio(grades.reduce((n, g) => n + g.spread, 0), grades.length),
    graded: grades.length,
    no_verdict: noVerdict,
    n: grades.length + noVerdict,
    errors,
  };
}
