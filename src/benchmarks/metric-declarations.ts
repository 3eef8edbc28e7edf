import type { MetricDeclaration, Metrics } from './task.js';

/** The metric a key of the metrics belongs to: itself, or `<name>` for its interval `<name>_ci95`. */
const metricNameOf = (key: string): string => (key.endsWith('_ci95') ? key.slice(0, -'_ci95'.length) : key);

/**
 * The declaration of the metric a metrics key or a table row's dotted path belongs to (a
 * breakdown's part `by_template.direct.rate` is `by_template`'s; an interval its metric's).
 */
export function declarationOf(declarations: readonly MetricDeclaration[] | undefined, path: string): MetricDeclaration | undefined {
  const name = metricNameOf(path.split('.')[0] ?? path);
  return declarations?.find((d) => d.name === name);
}

/** The keys of a task's metrics it did not declare (an interval goes with its metric). */
export function undeclaredMetrics(declarations: readonly MetricDeclaration[] | undefined, metrics: Metrics): string[] {
  return Object.keys(metrics).filter((key) => declarationOf(declarations, key) === undefined);
}

/** `share, higher is better`: a declaration's unit and direction, as `--explain` and the report say them. */
export function unitAndDirection(d: MetricDeclaration): string {
  return d.direction === 'none' ? d.unit : `${d.unit}, ${d.direction} is better`;
}
