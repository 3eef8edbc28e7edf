import { InputError } from '../core/index.js';
import { functionchatTasks } from './functionchat/index.js';
import { metatoolTasks } from './metatool/index.js';
import { groundednessTask } from './groundedness/task.js';
import { summariesTask } from './summaries/task.js';
import type { Task } from './task.js';

/** Every task assay can run, in the order `assay list` shows them. */
export const allTasks: readonly Task[] = [...metatoolTasks, ...functionchatTasks, summariesTask, groundednessTask];

export function findTask(name: string): Task {
  const task = allTasks.find((t) => t.name === name);
  if (!task) {
    const near = allTasks.filter((t) => t.name.includes(name) || name.includes(t.name.split('/')[1] ?? '')).map((t) => t.name);
    const hint = near.length > 0 ? `did you mean ${near.join(', ')}?` : `run "assay list" to see the tasks`;
    throw new InputError(`unknown task "${name}"; ${hint}`);
  }
  return task;
}
