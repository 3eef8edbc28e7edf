import type { Metrics, MetricValue } from '../benchmarks/task.js';
import type { Interval } from '../metrics/intervals.js';
import type { GateResult } from './gate-result.js';
import { decideThreshold, describeThreshold, type ThresholdGate } from './threshold.js';

/** What a gate reads of a finished run: its summary's per-model metrics (`RunSummary` has this shape). */
export interface GatedRunSummary {
  readonly run: string;
  readonly task: string;
  readonly models: Readonly<Record<string, { readonly metrics: Metrics }>>;
}

/** One suite entry's gates, and the models its run was to measure. */
export interface EntryGates {
  /** The entry's label, matching {@link EntrySummary.entry}. */
  readonly entry: string;
  readonly task: string;
  /** The suite's models: each is gated, whether or not its run has metrics for it. */
  readonly models: readonly string[];
  readonly gates: Readonly<Record<string, ThresholdGate>>;
  /** Declared units by metric name, for writing figures (a share as a percentage). */
  readonly units?: Readonly<Record<string, string>>;
}

/** A suite entry's run, once it ended (absent: the entry never ran — its gates are inconclusive). */
export interface EntrySummary {
  readonly entry: string;
  readonly summary: GatedRunSummary;
}

/**
 * Checks every threshold gate of every entry for every model (entries in the order given, then
 * models, then gates in their declared order). Pure: the suite runner passes the summaries its
 * runs ended with. A model without metrics (its run never reached it), a metric the summary does
 * not hold, a value that is not one number (a breakdown) or is null: inconclusive.
 * Gates with only `require: non-inferior` are regression gates ({@link evaluateRegression}) and
 * are skipped here.
 */
export function evaluateGates(summaries: readonly EntrySummary[], gates: readonly EntryGates[]): GateResult[] {
  const results: GateResult[] = [];
  for (const entry of gates) {
    const summary = summaries.find((s) => s.entry === entry.entry)?.summary;
    for (const model of entry.models) {
      const metrics = summary?.models[model]?.metrics;
      for (const [metric, gate] of Object.entries(entry.gates)) {
        if (gate.min === undefined && gate.max === undefined) continue;
        const unit = entry.units?.[metric];
        const base = { kind: 'threshold' as const, entry: entry.entry, task: entry.task, model, metric, ...(unit === undefined ? {} : { unit }), rule: describeThreshold(gate, unit) };
        if (!summary || !metrics) {
          const why = !summary ? `the ${entry.task} run did not end with a summary` : `run ${summary.run} has no metrics for ${model}`;
          results.push({ ...base, outcome: 'inconclusive', value: null, interval: null, relation: 'none', reason: `${why}: nothing to check` });
          continue;
        }
        const reading = readMetric(metrics, metric);
        if (reading.problem !== undefined) {
          results.push({ ...base, outcome: 'inconclusive', value: null, interval: null, relation: 'none', reason: reading.problem });
          continue;
        }
        const decision = decideThreshold(reading.value, reading.interval, gate, unit);
        results.push({ ...base, value: reading.value, interval: reading.interval, ...decision });
      }
    }
  }
  return results;
}

/** A metric's number and its `<name>_ci95`, as the task's `metrics()` returns them. */
function readMetric(metrics: Metrics, name: string): { value: number | null; interval: Interval | null; problem?: string } {
  if (!(name in metrics)) return { value: null, interval: null, problem: `the run's metrics have no ${name} (the task returns it only under some options or readings?)` };
  const value: MetricValue | undefined = metrics[name];
  if (value !== null && typeof value === 'object') return { value: null, interval: null, problem: `${name} is a breakdown, not one number; gate one of its figures' own metric` };
  return { value: value ?? null, interval: intervalOf(metrics[`${name}_ci95`]) };
}

function intervalOf(value: MetricValue | undefined): Interval | null {
  if (value === null || value === undefined || typeof value !== 'object') return null;
  const { low, high } = value as { low?: unknown; high?: unknown };
  return typeof low === 'number' && typeof high === 'number' && Number.isFinite(low) && Number.isFinite(high) ? { low, high } : null;
}
