import { allTasks, taskNamed } from '../benchmarks/registry.js';
import type { MetricDeclaration } from '../benchmarks/task.js';
import { REPEAT_METRIC_DECLARATIONS } from '../benchmarks/repeat-metrics.js';

/**
 * The task registry as `validateSuite` (config/) reads it: each task's declared metrics (with
 * their unit and better direction), and every name for "did you mean". A task that declares no
 * metrics gives `[]`: none of its metrics can be gated.
 */
export function taskCatalog(): { readonly names: readonly string[]; metricsOf(task: string): readonly MetricDeclaration[] | undefined } {
  return {
    names: allTasks.map((t) => t.name),
    metricsOf: (task) => {
      const found = taskNamed(task);
      // A suite with `repeats:` may gate the repeat metrics (pass^k…) of any task that declares metrics.
      return found === undefined ? undefined : found.metricDeclarations === undefined || found.metricDeclarations.length === 0 ? [] : [...found.metricDeclarations, ...REPEAT_METRIC_DECLARATIONS];
    },
  };
}

/**
 * Each suite entry's label in the outputs: its task, with its position when the suite runs one
 * task more than once (`summaries/alignment #2`), so every test case and row is told apart.
 */
export function entryLabels(tasks: readonly string[]): string[] {
  return tasks.map((task, i) => (tasks.filter((t) => t === task).length > 1 ? `${task} #${tasks.slice(0, i + 1).filter((t) => t === task).length}` : task));
}
