import type { PreparedTask, Task, TaskContext } from './task.js';
import { sampleAt, stratifiedPositions, type SampleList } from '../core/index.js';

/**
 * Prepares a task's samples as every path of a run builds them (a new run, a resume, a queue
 * worker, `--estimate`, `assay samples`): the task's own `prepare`, then `--sample N`
 * (`TaskOptions.sample`), the same for every task: N of its samples seeded by the run's seed, in
 * proportion to the task's categories (`Task.categoryKey`), in the task's order.
 */
export async function prepareTask(task: Task, ctx: TaskContext): Promise<PreparedTask> {
  const prepared = await task.prepare(ctx);
  const n = ctx.options.sample;
  return n === undefined ? prepared : { ...prepared, samples: seededSample(prepared.samples, n, ctx.seed, task.categoryKey) };
}

/** The sample's positions drawn by `stratifiedPositions`, reading only each sample's category (a list built on demand is not held). */
function seededSample(samples: SampleList, n: number, seed: number, categoryKey: string | undefined): SampleList {
  const categories: (string | undefined)[] = [];
  for (const sample of samples) {
    const category = categoryKey === undefined ? undefined : sample.metadata[categoryKey];
    categories.push(category === undefined || category === null ? undefined : String(category));
  }
  return stratifiedPositions(categories, n, seed).map((position) => sampleAt(samples, position));
}
