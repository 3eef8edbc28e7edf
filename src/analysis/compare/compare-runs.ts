import { comparisonOf } from '../../benchmarks/comparison.js';
import { taskNamed } from '../../benchmarks/registry.js';
import type { Store } from '../../store/store.js';
import { requireRun } from '../../store/require-run.js';
import { storedForComparison } from './input-digests.js';
import { buildRunComparison, refuseOtherTask, type RunComparison } from './run-comparison.js';

/**
 * `assay compare <runA> <runB>`: reads both runs' stored results and compares them
 * ({@link buildRunComparison}). The store only: no data dir, no `prepare`, no model.
 */
export async function compareRuns(store: Store, runIdA: string, runIdB: string): Promise<RunComparison> {
  const runA = await requireRun(store, runIdA);
  const runB = await requireRun(store, runIdB);
  refuseOtherTask(runA, runB); // before reading any result
  const task = taskNamed(runA.task);
  const notes: string[] = [];
  if (!task) notes.push(`task ${runA.task} is not known to this assay: scores are read the default way (true/false pass or fail, a number the value)`);
  for (const run of [runA, runB]) {
    const reviews = (await store.reviews(run.id)).length;
    if (reviews > 0) notes.push(`run ${run.id} has ${reviews} human review(s); compared here are the stored scores (the judge's verdicts), not the reviewed ones`);
  }
  const [a, b] = await Promise.all([storedForComparison(store, runA.id), storedForComparison(store, runB.id)]);
  return buildRunComparison({ runA, runB, resultsA: a.results, resultsB: b.results, comparison: comparisonOf(task), notes, inputs: { a: a.digests, b: b.digests } });
}
