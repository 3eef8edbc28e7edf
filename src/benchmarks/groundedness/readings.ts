import { wilsonInterval } from '../../metrics/intervals.js';
import { ratio } from '../../metrics/rates.js';
import { differingRows } from '../reading-rows.js';
import type { JudgedReadings, Metrics, MetricsContext, ScoredSample } from '../task.js';
import { gradeOf, groundedPass } from './metrics.js';

/**
 * The harm-measurement resource's groundedness guideline (`resources/harm/groundedness/manifest.yaml`:
 * `defectThreshold: 3`, `defectWhen: at-most`): the same 1–5 scale with a defect at 3 or below.
 */
export const HARM_SCALE_DEFECT_AT_MOST = 3;

const ci = (successes: number, n: number): Metrics[string] => {
  const i = wilsonInterval(successes, n);
  return i && { low: i.low, high: i.high };
};

function read(rows: readonly ScoredSample[], threshold: number): { metrics: Record<string, Metrics>; differing: number } {
  const scores: number[] = [];
  const verdicts: (boolean | null)[][] = [];
  let noVerdict = 0;
  let errors = 0;
  for (const row of rows) {
    if (row.score === undefined) {
      errors++;
      // Azure's pass rate counts every row: one with no result is not a pass.
      verdicts.push([null, null, false]);
      continue;
    }
    const grade = gradeOf(row.score);
    if (!grade) {
      noVerdict++;
      verdicts.push([null, null, false]);
      continue;
    }
    scores.push(grade.score);
    verdicts.push([groundedPass(grade, threshold), grade.score > HARM_SCALE_DEFECT_AT_MOST, grade.score >= threshold]);
  }
  const graded = scores.length;
  const below = scores.filter((s) => s < threshold).length;
  const atMost = scores.filter((s) => s <= HARM_SCALE_DEFECT_AT_MOST).length;
  const all = rows.length;
  const passed = scores.filter((s) => s >= threshold).length;
  const meanScore = ratio(scores.reduce((n, s) => n + s, 0), graded);
  return {
    metrics: {
      assay: { defect_rate: ratio(below, graded), defect_rate_ci95: ci(below, graded), mean_score: meanScore, graded, no_verdict: noVerdict, errors, n: graded + noVerdict },
      'harm-scale': { defect_rate: ratio(atMost, graded), defect_rate_ci95: ci(atMost, graded), mean_score: meanScore, graded, no_verdict: noVerdict, errors, n: graded + noVerdict },
      azure: { pass_rate: ratio(passed, all), defect_rate: ratio(all - passed, all), mean_score: meanScore, graded, no_verdict: noVerdict, errors, n: all },
    },
    differing: differingRows(verdicts),
  };
}

/**
 * Groundedness read three ways from the same stored grades: assay's defect rate, the harm
 * resource's rule on the same scale, and Azure AI Evaluation's pass rate (read from
 * Azure/azure-sdk-for-python, `azure-ai-evaluation`: `_evaluators/_groundedness/_groundedness.py`,
 * `_evaluators/_common/_base_prompty_eval.py`, `_evaluate/_evaluate.py`).
 */
export const groundednessReadings = (thresholdOf: (context: MetricsContext) => number): JudgedReadings => ({
  names: ['assay', 'harm-scale', 'azure'],
  declarations: [
    { name: 'pass_rate', unit: 'share', direction: 'higher', interval: 'none', meaning: 'Azure: rows scored at least the threshold / all rows (no verdicts and errors do not pass)' },
  ],
  notes: [
    'assay (quality/groundedness): defect_rate = graded answers scored below --threshold (default 3) / graded; no verdicts and errors outside the denominator',
    `harm-scale: the harm resource groundedness's rule on the same 1–5 scale (resources/harm/groundedness/manifest.yaml: defectThreshold ${HARM_SCALE_DEFECT_AT_MOST}, defectWhen at-most) — a defect at ${HARM_SCALE_DEFECT_AT_MOST} or below, so a 3 is a pass in assay's default reading and a defect here`,
    'azure: pass_rate = rows scored at least the threshold / ALL rows, a row with no readable score or no result counting as not passing (GroundednessEvaluator(threshold=3) in _groundedness.py; PromptyEvaluatorBase._get_binary_result: NaN → "unknown", not a pass; _evaluate.py, _aggregation_binary_output: pass count / len(df)); defect_rate = 1 − pass_rate; mean_score over readable scores only (_aggregate_metrics: df.mean skips NaN). The run\'s --threshold is used for both',
    'all readings: the judge\'s stored grades, human reviews not applied; a grade is a level of the scale (the repeats\' strict majority, else their median away from the defect; a run stored before may hold an x.5 grade, read as it is)',
  ],
  read: (rows, context) => read(rows, thresholdOf(context)),
});
