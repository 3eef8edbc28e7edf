import { InputError } from '../core/index.js';
import type { AssayConfig } from './load-config.js';
import { nearestName } from '../core/nearest-name.js';
import type { SuiteDeclaration } from './read-suites.js';
import type { MetricGate } from './suite-schema.js';

/** What a suite's check needs of one metric a task declares (`MetricDeclaration` has these and more). */
export interface GateableMetric {
  readonly name: string;
  readonly unit: string;
  readonly direction: 'higher' | 'lower' | 'none';
  /** How the task's `<name>_ci95` is made; `none`: the task returns no interval for it. */
  readonly interval?: string;
  /** The answer readings (`parser` option) the metric exists under; absent: all. */
  readonly readings?: readonly string[];
  /** Present for a breakdown of differently-measured figures: not one number. */
  readonly parts?: readonly unknown[];
}

/**
 * The tasks a suite may name, as the caller knows them: config/ does not import the task registry
 * (benchmarks/ sits above it), so the caller passes this (`taskCatalog()` in gates/ builds it
 * from the registry).
 */
export interface SuiteTaskCatalog {
  /** The task's declared metrics; `[]` for a task that declares none; undefined when there is no such task. */
  metricsOf(task: string): readonly GateableMetric[] | undefined;
  /** Every task name, for "did you mean". */
  readonly names: readonly string[];
}

/**
 * Checks a suite against the tasks before anything runs (issue 24 "Bad input"): an unknown suite
 * or task, a gate on a metric the task does not declare, on one whose better direction is `none`
 * or undeclared (a threshold on it could not say pass or fail), a lone bound on the metric's good
 * side (`max` on a higher-is-better metric passes every worsening: a band of both is taken), and
 * a threshold outside 0…1 on a share (95 for 0.95), a breakdown of several figures, `require:
 * confident` on a metric the task returns no interval for (it could never pass), and a metric
 * that exists only under another answer reading than the entry's `parser` option.
 * @throws InputError one line, `file:line: suites.NAME.tasks[i]…: what is wrong` (exit 2).
 * @returns the suite checked (every suite is checked when `name` is omitted; the first is returned).
 */
export function validateSuite(config: AssayConfig, catalog: SuiteTaskCatalog, name?: string): SuiteDeclaration | undefined {
  if (name !== undefined) {
    const suite = config.suites.get(name);
    if (!suite) {
      const names = [...config.suites.keys()];
      const nearest = nearestName(name, names);
      const declared = names.length > 0 ? `it declares ${names.join(', ')}` : 'it declares no suites: (see docs/suites.md)';
      throw new InputError(`suite "${name}" is not declared in ${config.file}${nearest !== undefined ? ` (did you mean "${nearest}"?)` : ''}: ${declared}`, { file: config.file });
    }
    checkSuite(config, catalog, suite);
    return suite;
  }
  for (const suite of config.suites.values()) checkSuite(config, catalog, suite);
  return config.suites.values().next().value;
}

function checkSuite(config: AssayConfig, catalog: SuiteTaskCatalog, suite: SuiteDeclaration): void {
  suite.tasks.forEach((entry, i) => {
    const metrics = catalog.metricsOf(entry.task);
    if (metrics === undefined) {
      const nearest = nearestName(entry.task, catalog.names) ?? catalog.names.find((n) => n.endsWith(`/${entry.task}`));
      refuse(config, suite, ['tasks', i, 'task'], `unknown task "${entry.task}"${nearest !== undefined ? `; did you mean "${nearest}"?` : '; run "assay list" to see the tasks'}`);
    }
    for (const [metricName, gate] of Object.entries(entry.gates ?? {})) {
      const at = ['tasks', i, 'gates', metricName];
      const metric = metrics.find((m) => m.name === metricName);
      if (!metric) {
        if (metrics.length === 0) refuse(config, suite, at, `task ${entry.task} declares no metrics, so none can be gated`);
        const nearest = nearestName(metricName, metrics.map((m) => m.name));
        const gateable = metrics.filter((m) => m.direction !== 'none' && m.parts === undefined).map((m) => m.name);
        refuse(config, suite, at, `task ${entry.task} has no metric "${metricName}"${nearest !== undefined ? `; did you mean "${nearest}"?` : ''} (its metrics with a better direction: ${gateable.join(', ') || 'none'})`);
      }
      checkGate(config, suite, at, entry.task, metric, gate);
      const parser = entry.options?.['parser'];
      if (metric.readings !== undefined && typeof parser === 'string' && !metric.readings.includes(parser)) {
        refuse(config, suite, at, `${entry.task} returns ${metric.name} only under parser ${metric.readings.join(' or ')}, and this entry reads answers with parser ${parser}`);
      }
    }
  });
}

function checkGate(config: AssayConfig, suite: SuiteDeclaration, at: readonly PropertyKey[], task: string, metric: GateableMetric, gate: MetricGate): void {
  if (metric.direction !== 'higher' && metric.direction !== 'lower') {
    refuse(config, suite, at, `${task}'s ${metric.name} is neither better high nor better low (direction ${metric.direction}), so no threshold on it says pass or fail; gate a metric that has a better direction`);
  }
  if (metric.parts !== undefined) {
    refuse(config, suite, at, `${task}'s ${metric.name} is a breakdown of several figures, not one number; gate a metric of one number`);
  }
  if (gate.require === 'confident' && metric.interval === 'none') {
    refuse(config, suite, [...at, 'require'], `${task} returns no interval for ${metric.name}, so require: confident could never pass; drop it (min/max decide on the point) or gate a metric with an interval`);
  }
  const both = gate.min !== undefined && gate.max !== undefined;
  if (!both && metric.direction === 'higher' && gate.max !== undefined) {
    refuse(config, suite, [...at, 'max'], `${metric.name} is better higher: a max alone would pass every drop and fail an improvement; use min (or both, for a band)`);
  }
  if (!both && metric.direction === 'lower' && gate.min !== undefined) {
    refuse(config, suite, [...at, 'min'], `${metric.name} is better lower: a min alone would pass every rise and fail an improvement; use max (or both, for a band)`);
  }
  if (metric.unit === 'share') {
    for (const bound of ['min', 'max'] as const) {
      const value = gate[bound];
      if (value !== undefined && (value < 0 || value > 1)) {
        refuse(config, suite, [...at, bound], `${metric.name} is a share between 0 and 1; ${value} would ${outOfRangeEffect(bound, value)} (write ${value > 1 && value <= 100 ? value / 100 : '0.95'} for ${value > 1 && value <= 100 ? value : 95}%)`);
      }
    }
  }
}

function outOfRangeEffect(bound: 'min' | 'max', value: number): string {
  const never = (bound === 'min' && value > 1) || (bound === 'max' && value < 0);
  return never ? 'never pass' : 'always pass';
}

function refuse(config: AssayConfig, suite: SuiteDeclaration, field: readonly PropertyKey[], message: string): never {
  throw new InputError(`${config.whereSuite(suite.name, field)}: ${message}`, { file: config.file, line: config.suiteLine(suite.name, field) });
}
