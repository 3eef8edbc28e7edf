import type { ChartSpec, MetricValue, Metrics } from '../benchmarks/task.js';
import { wilsonInterval } from '../metrics/intervals.js';

/** One model's values over a chart's categories (null: the model has no value there). */
export interface ChartSeries {
  readonly model: string;
  readonly values: readonly (number | null)[];
  /** The 95% interval's bounds per category, when the chart has intervals. */
  readonly low?: readonly (number | null)[];
  readonly high?: readonly (number | null)[];
}

/** A task's chart resolved against a run's metrics: categories × one series per model. */
export interface ChartData {
  readonly id: string;
  readonly title: string;
  readonly description?: string;
  readonly unit: ChartSpec['unit'];
  /** Where the intervals come from: the metrics' own (`given`), Wilson from counts, or none. */
  readonly interval: 'given' | 'wilson' | null;
  /** Category keys, in order. */
  readonly categories: readonly string[];
  /** Their names in the chart. */
  readonly labels: readonly string[];
  readonly series: readonly ChartSeries[];
  readonly matrix?: ChartSpec['matrix'];
}

type MetricObject = { readonly [key: string]: MetricValue };
const isObject = (value: MetricValue | undefined): value is MetricObject => value !== null && value !== undefined && typeof value === 'object';

/** The breakdown at a dotted path ('' for the metrics themselves). */
function breakdownAt(metrics: Metrics, path: string): MetricObject | undefined {
  let node: MetricValue | undefined = metrics as MetricObject;
  for (const part of path === '' ? [] : path.split('.')) node = isObject(node) ? node[part] : undefined;
  return isObject(node) ? node : undefined;
}

const numberOr = (value: MetricValue | undefined): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

interface Point {
  readonly value: number | null;
  readonly low: number | null;
  readonly high: number | null;
}

function pointOf(spec: ChartSpec, category: MetricValue | undefined): Point {
  if (spec.value === undefined) return { value: numberOr(category), low: null, high: null };
  if (!isObject(category)) return { value: null, low: null, high: null };
  const value = numberOr(category[spec.value]);
  if (spec.interval === undefined) return { value, low: null, high: null };
  if (typeof spec.interval === 'string') {
    const interval = category[spec.interval];
    return isObject(interval) ? { value, low: numberOr(interval['low']), high: numberOr(interval['high']) } : { value, low: null, high: null };
  }
  const successes = numberOr(category[spec.interval.successes]);
  const n = numberOr(category[spec.interval.n]);
  const wilson = successes !== null && n !== null && Number.isInteger(successes) && Number.isInteger(n) && successes <= n ? wilsonInterval(successes, n) : null;
  return { value, low: wilson?.low ?? null, high: wilson?.high ?? null };
}

/** A scale's whole levels and every other key the breakdowns have, in numeric order. */
function scaleCategories(scale: NonNullable<ChartSpec['scale']>, breakdowns: readonly (MetricObject | undefined)[]): string[] {
  const levels = new Set<string>();
  for (let level = scale.min; level <= scale.max; level++) levels.add(String(level));
  for (const b of breakdowns) for (const key of Object.keys(b ?? {})) levels.add(key);
  return [...levels].sort((a, b) => Number(a) - Number(b));
}

/**
 * Resolves a task's chart declarations against each model's metrics, in the run's model order. A
 * chart is left out when no model has its breakdown; a category is drawn when some model has it
 * (declared categories are kept in their order even where a model has none: a zero count is data),
 * and every level of a declared scale is. A chart whose breakdowns are empty is kept with no
 * categories: the page says it has no data, and why.
 */
export function resolveCharts(specs: readonly ChartSpec[], models: readonly (readonly [string, Metrics])[]): ChartData[] {
  const charts: ChartData[] = [];
  for (const spec of specs) {
    const breakdowns = models.map(([model, metrics]) => [model, breakdownAt(metrics, spec.metric)] as const);
    if (breakdowns.every(([, b]) => b === undefined)) continue;
    const categories = spec.scale
      ? scaleCategories(spec.scale, breakdowns.map(([, b]) => b))
      : spec.categories
        ? spec.categories.filter((c) => breakdowns.some(([, b]) => b !== undefined && Object.hasOwn(b, c)))
        : [...new Set(breakdowns.flatMap(([, b]) => (b ? Object.keys(b) : [])))];
    const hasInterval = spec.interval !== undefined;
    // On a scale, a level a model's breakdown lacks is a count of 0 (nobody got it); elsewhere the model has no value there.
    const missing = (breakdown: MetricObject | undefined): Point => (spec.scale && breakdown ? { value: 0, low: null, high: null } : { value: null, low: null, high: null });
    const series = breakdowns.map(([model, breakdown]): ChartSeries => {
      const points = categories.map((c) => (breakdown && Object.hasOwn(breakdown, c) ? pointOf(spec, breakdown[c]) : missing(breakdown)));
      return {
        model,
        values: points.map((p) => p.value),
        ...(hasInterval ? { low: points.map((p) => p.low), high: points.map((p) => p.high) } : {}),
      };
    });
    charts.push({
      id: spec.id,
      title: spec.title,
      ...(spec.description ? { description: spec.description } : {}),
      unit: spec.unit,
      interval: spec.interval === undefined ? null : typeof spec.interval === 'string' ? 'given' : 'wilson',
      categories,
      labels: categories.map((c) => spec.labels?.[c] ?? c),
      series,
      ...(spec.matrix ? { matrix: spec.matrix } : {}),
    });
  }
  return charts;
}
