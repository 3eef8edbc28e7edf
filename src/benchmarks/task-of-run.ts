import { InputError } from '../core/index.js';
import { findTask } from './registry.js';
import type { Task } from './task.js';

/** What of a stored run names its task (the store's `RunRecord`, structurally: benchmarks/ does not import the store). */
export interface RunOfTask {
  readonly id: string;
  readonly task: string;
  readonly taskVersion: string;
}

/** The task a run was made with, refused when this assay's version of it scores differently. */
export function taskOfRun(run: RunOfTask): Task {
  const task = findTask(run.task);
  if (task.version !== run.taskVersion) {
    throw new InputError(`run ${run.id} was made with ${run.task} version ${run.taskVersion}; this assay has version ${task.version}`);
  }
  return task;
}
