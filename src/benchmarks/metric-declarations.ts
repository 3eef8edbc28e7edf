import type { AnswerParserName, MetricDeclaration, MetricUnit, MetricValue, Metrics } from './task.js';

/** Whether a key holds an interval: `<name>_ci95`, or a bare `ci95` beside a part (harm's per-template `rate`). */
export const isIntervalKey = (key: string): boolean => key === 'ci95' || key.endsWith('_ci95');

/** The metric a key of the metrics belongs to: itself, or `<name>` for its interval `<name>_ci95`. */
const metricNameOf = (key: string): string => (key.endsWith('_ci95') ? key.slice(0, -'_ci95'.length) : key);

const isObject = (value: MetricValue | undefined): value is { readonly [key: string]: MetricValue } => value !== null && value !== undefined && typeof value === 'object';

/**
 * The declaration of the metric a metrics key or a table row's dotted path belongs to (a
 * breakdown's part `by_template.direct.rate` is `by_template`'s; an interval its metric's).
 */
export function declarationOf(declarations: readonly MetricDeclaration[] | undefined, path: string): MetricDeclaration | undefined {
  const name = metricNameOf(path.split('.')[0] ?? path);
  return declarations?.find((d) => d.name === name);
}

/** The part a key of a breakdown names: itself or its `_ci95`; a bare `ci95` goes with the one part that has an interval. */
function partNamed(parts: readonly MetricDeclaration[], key: string): MetricDeclaration | undefined {
  if (key === 'ci95') {
    const withInterval = parts.filter((p) => p.interval !== 'none');
    return withInterval.length === 1 ? withInterval[0] : undefined;
  }
  return parts.find((p) => p.name === metricNameOf(key));
}

/**
 * The declaration of the number at a path of a task's metrics (`['by_template', 'direct',
 * 'ci95', 'low']`): the metric's own, or — for a metric declared with parts — the part the
 * deepest key names (so a category that shares a part's name is never read as that part).
 * Undefined when the metric, or the part, is not declared.
 */
export function declarationAt(declarations: readonly MetricDeclaration[] | undefined, path: readonly string[]): MetricDeclaration | undefined {
  const top = declarationOf(declarations, path[0] ?? '');
  if (top?.parts === undefined || path.length === 1) return top;
  for (let i = path.length - 1; i >= 1; i--) {
    const part = partNamed(top.parts, path[i] as string);
    if (part) return part;
  }
  return undefined;
}

/** The unit of the number at a path of the metrics (see {@link declarationAt}); undefined when nothing declares it. */
export const unitAt = (declarations: readonly MetricDeclaration[] | undefined, path: readonly string[]): MetricUnit | undefined => declarationAt(declarations, path)?.unit;

/** The keys under a metric's value its declaration does not cover, as dotted paths. */
function undeclaredParts(declaration: MetricDeclaration, value: MetricValue, path: string): string[] {
  if (!isObject(value)) return [];
  const out: string[] = [];
  for (const [key, child] of Object.entries(value)) {
    const at = `${path}.${key}`;
    // An interval `{low, high}` is its number's; the number must be one that declares an interval.
    if (isIntervalKey(key)) {
      const owner = declaration.parts ? partNamed(declaration.parts, key) : undefined;
      if (declaration.parts && (owner === undefined || owner.interval === 'none')) out.push(at);
      continue;
    }
    if (declaration.parts === undefined) {
      // Categories of numbers in the metric's unit; an object in them would be figures nothing declares.
      if (isObject(child)) out.push(at);
    } else if (isObject(child)) {
      out.push(...undeclaredParts(declaration, child, at));
    } else if (partNamed(declaration.parts, key) === undefined) {
      out.push(at);
    }
  }
  return out;
}

/**
 * What a task's metrics hold that its declarations do not say: a key with no declaration, one
 * returned under an answer reading its declaration does not list (`reading`: the reading the
 * metrics were computed under), an interval of a metric declared without one, and any figure of
 * a breakdown its parts do not declare (as a dotted path). Empty when every number is declared.
 */
export function undeclaredMetrics(declarations: readonly MetricDeclaration[] | undefined, metrics: Metrics, reading?: AnswerParserName): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(metrics)) {
    const declaration = declarationOf(declarations, key);
    if (declaration === undefined || (reading !== undefined && declaration.readings !== undefined && !declaration.readings.includes(reading))) out.push(key);
    else if (isIntervalKey(key)) {
      if (declaration.interval === 'none') out.push(key);
    } else out.push(...undeclaredParts(declaration, value, key));
  }
  return out;
}

const INTERVAL_WORDS: Readonly<Record<MetricDeclaration['interval'], string>> = { wilson: 'Wilson 95% interval', bootstrap: 'bootstrap 95% interval', none: '' };

/**
 * `share, higher is better; Wilson 95% interval; --parser paper only`: a declaration's unit,
 * direction, interval and readings, as `--explain` and the report's tables say them.
 */
export function unitAndDirection(d: MetricDeclaration): string {
  const unit = d.direction === 'none' ? d.unit : `${d.unit}, ${d.direction} is better`;
  const readings = d.readings ? `--parser ${d.readings.join(' or ')} only` : '';
  return [unit, INTERVAL_WORDS[d.interval], readings].filter((s) => s !== '').join('; ');
}
