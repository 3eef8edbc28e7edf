import { readFile } from 'node:fs/promises';
import { InputError } from '../core/index.js';
import type { Task } from '../benchmarks/task.js';
import type { ReviewRecord, RunRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import { parseReviewFile } from './review-file.js';
import { reviewChanges, reviewReadingOf, type ReviewReading } from '../benchmarks/review-reading.js';
import type { Score } from '../core/index.js';
import { taskOfRun } from '../benchmarks/task-of-run.js';
import { requireRun } from '../store/require-run.js';

export interface ReviewOutcome {
  readonly runId: string;
  /** Reviews stored from this file. */
  readonly applied: number;
  /** Of those, how many give another verdict than the stored score's pass or fail (judge or exact match; the task's `reviewReading`), no verdict included. */
  readonly changed: number;
}

/** How a run's stored scores read as a reviewer's pass or fail (its task's reading with the run's options). */
export const reviewReadingOfRun = (run: RunRecord, task: Task = taskOfRun(run)): ReviewReading =>
  reviewReadingOf(task, { options: run.options, facts: run.metricsFacts });

/**
 * Applies a reviewer's CSV to a run: each line's verdict is stored beside the judge's (which is
 * kept), and reviewed reports use it instead. Every line is checked before anything is stored: an
 * unknown item, a model the run does not have, or an item without a scored output refuses the
 * whole file, naming the line.
 */
export async function applyReviewFile(store: Store, runIdOrPrefix: string, file: string): Promise<ReviewOutcome> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new InputError(`cannot read review file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { file });
  }
  const lines = parseReviewFile(text, file);
  const run = await requireRun(store, runIdOrPrefix);
  const reading = reviewReadingOfRun(run);
  // A review is of an item's first answer (repeat 0): the one a run's own metrics, its reviewed
  // metrics and the report's review column read. A later repeat's score neither decides whether
  // the item can be reviewed nor whether the verdict changed.
  const scored = new Map<string, Score>();
  for (const result of await store.results(run.id, undefined, { outputs: false })) {
    if ((result.repeat ?? 0) === 0 && result.status === 'done' && result.score) scored.set(`${result.sampleId}\u0000${result.modelId}`, result.score);
  }
  const ofRepeat = (run.repeats ?? 1) > 1 ? ' in repeat 0 (a review is of an item\'s first answer)' : '';
  const reviewedAt = new Date().toISOString();
  let changed = 0;
  const reviews: ReviewRecord[] = lines.map((line) => {
    const where = `${file}: line ${line.line}`;
    if (line.modelId === undefined && run.models.length > 1) {
      throw new InputError(`${where}: run ${run.id} has ${run.models.length} models; add a "model" column`, { file, line: line.line });
    }
    const modelId = line.modelId ?? (run.models[0] as string);
    if (!run.models.includes(modelId)) throw new InputError(`${where}: run ${run.id} has no model "${modelId}" (it has ${run.models.join(', ')})`, { file, line: line.line });
    const key = `${line.sampleId}\u0000${modelId}`;
    if (!scored.has(key)) throw new InputError(`${where}: run ${run.id} has no scored output of ${modelId} for item "${line.sampleId}"${ofRepeat}`, { file, line: line.line });
    if (reviewChanges(reading, scored.get(key), line.verdict)) changed++;
    return { runId: run.id, sampleId: line.sampleId, modelId, verdict: line.verdict, note: line.note, source: file, reviewedAt };
  });
  await store.saveReviews(reviews);
  return { runId: run.id, applied: reviews.length, changed };
}
