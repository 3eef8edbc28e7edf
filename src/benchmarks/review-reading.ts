import type { Score } from '../core/index.js';
import { comparisonOf } from './comparison.js';
import type { MetricsContext, Task } from './task.js';

/** A stored score as pass, fail or no verdict in the sense of a reviewer's verdict. */
export type ReviewReading = (score: Score) => boolean | null;

/**
 * How a task's stored scores read as a reviewer's pass or fail, for one run: the task's own
 * {@link Task.reviewReading} (a groundedness grade against the run's threshold), else the pass of
 * its comparison reading (a boolean value; a harm judgment's `defect`); a score with no pass
 * reading is no verdict.
 */
export function reviewReadingOf(task: Task, context: MetricsContext): ReviewReading {
  const own = task.reviewReading;
  if (own) return (score) => own.call(task, score, context);
  const comparison = comparisonOf(task);
  return (score) => comparison.read(score).pass ?? null;
}

/** Whether a review's verdict differs from what the stored score says (a no verdict made pass or fail counts). */
export const reviewChanges = (reading: ReviewReading, score: Score | null | undefined, verdict: boolean): boolean =>
  score != null && reading(score) !== verdict;
