import { declarationOf, unitAndDirection } from '../benchmarks/metric-declarations.js';
import type { MetricDeclaration, MetricValue, Metrics } from '../benchmarks/task.js';
import { metricUnit, type MetricObject } from './console.js';

/** One model's value of one metric, with its 95% interval when the metrics give one. */
export interface MetricCell {
  readonly value: number | null;
  readonly low?: number;
  readonly high?: number;
}

/** One metric across the models: `key` is its dotted path (`by_template.direct.rate`). */
export interface MetricRow {
  readonly key: string;
  readonly unit: 'count' | 'number' | 'share';
  /** What the row's metric means, its unit and direction (`… (share, lower is better)`), from the task's declaration; absent when it declares none. */
  readonly meaning?: string;
  /** One cell per model, in the table's model order; null where the model has no such metric. */
  readonly cells: readonly (MetricCell | null)[];
}

/** Models side by side: every metric any of them has, in the metrics' own order. */
export interface MetricTable {
  readonly models: readonly string[];
  readonly rows: readonly MetricRow[];
}

const isObject = (value: MetricValue | undefined): value is MetricObject => value !== null && value !== undefined && typeof value === 'object';
const isInterval = (value: MetricValue | undefined): value is { low: number; high: number } =>
  isObject(value) && typeof value['low'] === 'number' && typeof value['high'] === 'number' && Object.keys(value).length === 2;

/**
 * The interval a metrics object gives for its key: `<key>_ci95` beside it, or `ci95` beside a
 * breakdown's `rate` (harm's per-template defect rates). Interval keys are not rows of their own.
 */
function intervalOf(object: MetricObject, key: string): { low: number; high: number } | undefined {
  const own = object[`${key}_ci95`];
  if (isInterval(own)) return own;
  const shared = object['ci95'];
  return key === 'rate' && isInterval(shared) ? shared : undefined;
}

const isIntervalKey = (object: MetricObject, key: string): boolean => (key === 'ci95' || key.endsWith('_ci95')) && (object[key] === null || isInterval(object[key]));

function flatten(metrics: MetricObject, prefix: string, parentKey: string, out: Map<string, { unit: MetricRow['unit']; cell: MetricCell }>): void {
  for (const [key, value] of Object.entries(metrics)) {
    if (isIntervalKey(metrics, key)) continue;
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (isObject(value)) {
      flatten(value, path, key, out);
      continue;
    }
    const interval = intervalOf(metrics, key);
    out.set(path, {
      unit: metricUnit(parentKey, metrics, key),
      cell: { value: typeof value === 'number' && Number.isFinite(value) ? value : null, ...(interval ? { low: interval.low, high: interval.high } : {}) },
    });
  }
}

/** The models' metrics as one table (rows in the metrics' order, merged across models), each row with its metric's declared meaning. */
export function metricTable(models: readonly (readonly [string, Metrics])[], declarations: readonly MetricDeclaration[] = []): MetricTable {
  const flat = models.map(([, metrics]) => {
    const out = new Map<string, { unit: MetricRow['unit']; cell: MetricCell }>();
    flatten(metrics as MetricObject, '', '', out);
    return out;
  });
  // Every model's keys, each new one placed after the key it follows in that model's metrics (a
  // breakdown group only one model has sits with its siblings, not at the end).
  const keys: string[] = [];
  for (const model of flat) {
    let previous = -1;
    for (const key of model.keys()) {
      const at = keys.indexOf(key);
      if (at >= 0) previous = at;
      else keys.splice(++previous, 0, key);
    }
  }
  const rows = keys.map((key): MetricRow => {
    const unit = flat.map((m) => m.get(key)?.unit).find((u) => u !== undefined) ?? 'number';
    const declared = declarationOf(declarations, key);
    return { key, unit, ...(declared ? { meaning: `${declared.meaning} (${unitAndDirection(declared)})` } : {}), cells: flat.map((m) => m.get(key)?.cell ?? null) };
  });
  return { models: models.map(([model]) => model), rows };
}
