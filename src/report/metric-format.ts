import { findTask } from '../benchmarks/registry.js';
import type { MetricDeclaration, MetricUnit, MetricValue, Task } from '../benchmarks/task.js';
import { JUDGE_AGREEMENT_DECLARATION } from '../analysis/summary.js';
import { REPEAT_METRIC_DECLARATIONS } from '../benchmarks/repeat-metrics.js';

// How a metric's numbers are shown, from the task's declarations alone: nothing reads a unit
// from a key's name. The console, `--readings` and the report's tables share it.

export type MetricObject = { readonly [key: string]: MetricValue };

export const isObject = (value: MetricValue | undefined): value is MetricObject => value !== null && value !== undefined && typeof value === 'object';

/** Every metric a run of the task may have: the task's own and the one the summary adds (`judge_agreement`). */
export const runMetricDeclarations = (task: Pick<Task, 'metricDeclarations'>): readonly MetricDeclaration[] => [...(task.metricDeclarations ?? []), JUDGE_AGREEMENT_DECLARATION, ...REPEAT_METRIC_DECLARATIONS];

/** What `--readings` shows a task's figures by: its run's declarations, then its judged readings' own figures. */
export const readingsDeclarationsOf = (taskName: string): readonly MetricDeclaration[] => [...runMetricDeclarationsOf(taskName), ...(findTask(taskName).judgedReadings?.declarations ?? [])];

/** {@link runMetricDeclarations} of a task by its name (a run's `task`, a summary's). */
export const runMetricDeclarationsOf = (taskName: string): readonly MetricDeclaration[] => runMetricDeclarations(findTask(taskName));

/**
 * How the report's tables show a number: a share as a percentage, a count as an integer, the rest
 * (a mean, a level, a coefficient, a number nothing declares) as a number.
 */
export type ShownUnit = 'count' | 'number' | 'share';

export function shownUnit(unit: MetricUnit | undefined): ShownUnit {
  return unit === 'share' || unit === 'count' ? unit : 'number';
}

const percent = (v: number): string => `${(v * 100).toFixed(2)}%`;

/** A coefficient to three decimals (a kappa's float noise, `0.24999999999999986`, says nothing), never `-0.000`. */
function coefficient(v: number): string {
  const fixed = v.toFixed(3);
  return /^-0\.0+$/.test(fixed) ? fixed.slice(1) : fixed;
}

/**
 * A number as the console shows it, by its declared unit: n/a for undefined (null); a share as a
 * percentage with two decimals — unless it is above 1 or not finite, which no share is, so it is
 * shown as it is —; a coefficient to three decimals; anything else (a count, a mean, a level, a
 * number nothing declares) as the number itself.
 */
export function formatMetric(value: MetricValue, unit: MetricUnit | undefined): string {
  if (value === null) return 'n/a';
  if (typeof value !== 'number') return '';
  if (!Number.isFinite(value)) return String(value);
  if (unit === 'share') return value <= 1 ? percent(value) : String(value);
  return unit === 'coefficient' ? coefficient(value) : String(value);
}
