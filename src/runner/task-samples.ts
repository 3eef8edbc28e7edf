import { findTask } from '../benchmarks/registry.js';
import type { TaskOptions } from '../benchmarks/task.js';
import type { Sample } from '../core/index.js';
import { createEmbedder } from '../models/embedders.js';
import { prepareTask } from '../benchmarks/prepare-task.js';

export interface TaskSelection {
  readonly task: string;
  readonly seed: number;
  readonly options: TaskOptions;
  readonly dataDir: string;
}

/**
 * The samples a run with this task, seed, options and data would call its models for, in the
 * run's order, built exactly as `startRun` builds them; no model under test is called and nothing
 * is stored. (An own tool set ranked by a `local:` embedder still runs that embedder: the
 * candidate lists depend on it.)
 */
export async function buildTaskSamples(selection: TaskSelection): Promise<readonly Sample[]> {
  const task = findTask(selection.task);
  const prepared = await prepareTask(task, { dataDir: selection.dataDir, seed: selection.seed, options: selection.options, createEmbedder });
  // Every sample is printed: built now, all of them.
  return Array.from(prepared.samples);
}
