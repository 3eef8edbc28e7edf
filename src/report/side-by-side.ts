import { unitAt } from '../benchmarks/metric-declarations.js';
import type { MetricDeclaration } from '../benchmarks/task.js';
import type { RunSummary } from '../analysis/summary.js';
import { formatMetric, isObject, type MetricObject } from './metric-format.js';

/** A metric's 95% interval, when the task reports one beside it (`alignment_ci95` for `alignment`). */
function intervalOf(metrics: MetricObject, key: string): { low: number; high: number } | undefined {
  const ci = metrics[`${key}_ci95`] ?? null;
  return isObject(ci) && typeof ci['low'] === 'number' && typeof ci['high'] === 'number' ? { low: ci['low'], high: ci['high'] } : undefined;
}

/**
 * The models side by side: one row per top-level number any model reports (breakdowns stay in
 * each model's block below), one column per model, with the 95% interval where there is one.
 */
export function sideBySideLines(summary: RunSummary, declarations: readonly MetricDeclaration[]): string[] {
  const models = Object.keys(summary.models);
  const all = models.map((m) => (summary.models[m]?.metrics ?? {}) as MetricObject);
  const keys = [...new Set(all.flatMap((metrics) => Object.keys(metrics).filter((k) => !k.endsWith('_ci95') && !isObject(metrics[k] ?? null))))];
  const cell = (metrics: MetricObject, key: string): string => {
    if (!(key in metrics)) return '—';
    const value = metrics[key] ?? null;
    const unit = unitAt(declarations, [key]);
    const interval = intervalOf(metrics, key);
    const shown = formatMetric(value, unit);
    return interval ? `${shown} [${formatMetric(interval.low, unit)}, ${formatMetric(interval.high, unit)}]` : shown;
  };
  const table = [['metric', ...models], ...keys.map((key) => [key, ...all.map((metrics) => cell(metrics, key))])];
  const widths = (table[0] ?? []).map((_, i) => Math.max(...table.map((row) => (row[i] ?? '').length)));
  const line = (row: readonly string[]): string => `  ${row.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ')}`.trimEnd();
  return ['models side by side (95% interval where the task gives one):', ...table.map(line)];
}

