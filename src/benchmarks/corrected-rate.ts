import { correctedDefectRate, type CorrectedDefectRate, type JudgedItem } from '../metrics/corrected-defect-rate.js';
import { reviewReadingOf } from './review-reading.js';
import type { MetricsContext, ScoredSample, Task } from './task.js';

/**
 * The defect rate corrected for the judge's measured error, as `assay show --json` and the report
 * carry it (`reviewed.corrected_defect_rate`; `metrics/corrected-defect-rate.ts` computes it):
 * snake_case like the rest of the summary.
 */
export interface CorrectedDefectRateSummary {
  /** The judge's own defect rate over every item it gave a verdict: the raw `defect_rate`. */
  readonly judge_rate: number | null;
  /** The PPI estimate; null with fewer than two reviews on items the judge gave a verdict. */
  readonly rate: number | null;
  readonly ci95: { readonly low: number; readonly high: number } | null;
  /** Reviewed items the judge gave a verdict (the labels the correction reads). */
  readonly labelled: number;
  /** Items the judge gave a verdict and nobody reviewed. */
  readonly unlabelled: number;
  /** mean(person − judge) over the labelled items (negative: the judge over-calls defects). */
  readonly rectifier: number | null;
  /** Labels in all that would halve the interval (`labelsToHalveWidth`); null when labelling cannot. */
  readonly labels_to_halve: number | null;
  /** Reviews on items the judge gave no verdict (or that ended in error): the correction cannot use them. */
  readonly reviews_left_out: number;
}

/** The summary form of a {@link CorrectedDefectRate} (`assay agreement` prints the same line from it). */
export function correctedSummaryOf(c: CorrectedDefectRate, reviewsLeftOut = 0): CorrectedDefectRateSummary {
  return {
    judge_rate: c.judgeRate,
    rate: c.rate,
    ci95: c.interval && { low: c.interval.low, high: c.interval.high },
    labelled: c.labelled,
    unlabelled: c.unlabelled,
    rectifier: c.rectifier,
    labels_to_halve: c.labelsToHalve,
    reviews_left_out: reviewsLeftOut,
  };
}

/** Whether a task's headline is a defect rate of judged items (harm measurement, quality/groundedness). */
export const hasJudgedDefectRate = (task: Task): boolean => task.metricDeclarations?.some((d) => d.name === 'defect_rate' && d.direction === 'lower') ?? false;

/**
 * A run's defect rate corrected for its judge's measured error, the human reviews (`assay review`)
 * as the labels: an item is a defect for the judge when the task's review reading of its score is
 * a fail (harm: the guideline calls its severity a defect; groundedness: a grade below the run's
 * threshold) and for the person when the review fails it. Only items the judge gave a verdict
 * count (the same items as the raw `defect_rate`); the reviewed ones among them are taken as a
 * random subset. Undefined for a task without a judged defect rate, or without reviews.
 * @param reviews the person's pass (true) or fail (false) by sample id, for this model.
 */
export function correctedRateOfReviews(task: Task, context: MetricsContext, rows: readonly ScoredSample[], reviews: ReadonlyMap<string, boolean>): CorrectedDefectRateSummary | undefined {
  if (reviews.size === 0 || !hasJudgedDefectRate(task)) return undefined;
  const reading = reviewReadingOf(task, context);
  const items: JudgedItem[] = [];
  let used = 0;
  for (const { sample, score } of rows) {
    const pass = score ? reading(score) : null;
    if (pass === null) continue;
    const review = reviews.get(sample.id);
    if (review !== undefined) used++;
    items.push(review === undefined ? { judge: !pass } : { judge: !pass, human: !review });
  }
  return correctedSummaryOf(correctedDefectRate(items), reviews.size - used);
}
