import { declarationAt, declarationOf, unitAndDirection } from '../benchmarks/metric-declarations.js';
import type { MetricDeclaration, MetricValue, Metrics } from '../benchmarks/task.js';
import { isObject, shownUnit, type MetricObject, type ShownUnit } from './metric-format.js';

/** One model's value of one metric, with its 95% interval when the metrics give one. */
export interface MetricCell {
  readonly value: number | null;
  readonly low?: number;
  readonly high?: number;
}

/** One metric across the models: `key` is its dotted path (`by_template.direct.rate`). */
export interface MetricRow {
  readonly key: string;
  /** How its numbers are shown, from the task's declaration (`number` where nothing declares it). */
  readonly unit: ShownUnit;
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

const isInterval = (value: MetricValue | undefined): value is { low: number; high: number } =>
  isObject(value) && typeof value['low'] === 'number' && typeof value['high'] === 'number' && Object.keys(value).length === 2;

/**
 * The interval a metrics object gives for its key: `<key>_ci95` beside it, or a bare `ci95` beside
 * the part whose interval it is (harm's per-template `rate`, as its declaration says). Interval
 * keys are not rows of their own.
 */
function intervalOf(object: MetricObject, key: string, path: readonly string[], declarations: readonly MetricDeclaration[]): { low: number; high: number } | undefined {
  const own = object[`${key}_ci95`];
  if (isInterval(own)) return own;
  const shared = object['ci95'];
  if (!isInterval(shared)) return undefined;
  const owner = declarationAt(declarations, [...path.slice(0, -1), 'ci95']);
  return owner !== undefined && owner === declarationAt(declarations, path) ? shared : undefined;
}

const isIntervalKey = (object: MetricObject, key: string): boolean => (key === 'ci95' || key.endsWith('_ci95')) && (object[key] === null || isInterval(object[key]));

type FlatCell = { unit: MetricRow['unit']; cell: MetricCell };

function flatten(metrics: MetricObject, path: readonly string[], declarations: readonly MetricDeclaration[], out: Map<string, FlatCell>): void {
  for (const [key, value] of Object.entries(metrics)) {
    if (isIntervalKey(metrics, key)) continue;
    const at = [...path, key];
    if (isObject(value)) {
      flatten(value, at, declarations, out);
      continue;
    }
    const interval = intervalOf(metrics, key, at, declarations);
    out.set(at.join('.'), {
      unit: shownUnit(declarationAt(declarations, at)?.unit),
      cell: { value: typeof value === 'number' && Number.isFinite(value) ? value : null, ...(interval ? { low: interval.low, high: interval.high } : {}) },
    });
  }
}

/** What a row says it is: its metric's meaning, and for a part of a breakdown the part's too, with the unit and direction of its numbers. */
function meaningOf(declarations: readonly MetricDeclaration[], key: string): string | undefined {
  const metric = declarationOf(declarations, key);
  if (metric === undefined) return undefined;
  const part = declarationAt(declarations, key.split('.'));
  if (part === undefined || part === metric) return `${metric.meaning} (${unitAndDirection(metric)})`;
  return `${metric.meaning}; ${part.name}: ${part.meaning} (${unitAndDirection(part)})`;
}

/** The models' metrics as one table (rows in the metrics' order, merged across models), each row with its declared unit and meaning. */
export function metricTable(models: readonly (readonly [string, Metrics])[], declarations: readonly MetricDeclaration[] = []): MetricTable {
  const flat = models.map(([, metrics]) => {
    const out = new Map<string, FlatCell>();
    flatten(metrics as MetricObject, [], declarations, out);
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
    const meaning = meaningOf(declarations, key);
    return { key, unit, ...(meaning ? { meaning } : {}), cells: flat.map((m) => m.get(key)?.cell ?? null) };
  });
  return { models: models.map(([model]) => model), rows };
}
