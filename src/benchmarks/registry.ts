import { InputError } from '../core/index.js';
import { casesTask } from './cases/task.js';
import { functionchatTasks } from './functionchat/index.js';
import { metatoolTasks } from './metatool/index.js';
import { groundednessTask } from './groundedness/task.js';
import { harmFolderTask, shippedHarmTasks } from './harm/task.js';
import { summariesTask } from './summaries/task.js';
import type { Task } from './task.js';

/** Every task assay can run, in the order `assay list` shows them. */
export const allTasks: readonly Task[] = [...metatoolTasks, ...functionchatTasks, summariesTask, groundednessTask, ...shippedHarmTasks, casesTask];

/** Tasks a library user (or a test) made known by name, after the built-in ones. */
const registered = new Map<string, Task>();

/**
 * Makes a task of the caller's own runnable by name (`startRun`, `resumeRun`, `rescoreRun` find
 * it like a built-in one) in this process. Refuses a name that is taken.
 */
export function registerTask(task: Task): void {
  if (allTasks.some((t) => t.name === task.name) || registered.has(task.name)) throw new InputError(`a task named "${task.name}" exists already`);
  registered.set(task.name, task);
}

/** The task of that name, built in, registered, or a user's harm measurement resource (`harm:<folder>`); undefined when there is none (see `findTask` for the refusal). */
export function taskNamed(name: string): Task | undefined {
  return allTasks.find((t) => t.name === name) ?? registered.get(name) ?? harmFolderTask(name);
}

export function findTask(name: string): Task {
  const task = taskNamed(name);
  if (!task) {
    const near = allTasks.filter((t) => t.name.includes(name) || name.includes(t.name.split('/')[1] ?? '')).map((t) => t.name);
    const hint = near.length > 0 ? `did you mean ${near.join(', ')}?` : `run "assay list" to see the tasks`;
    throw new InputError(`unknown task "${name}"; ${hint}`);
  }
  return task;
}
