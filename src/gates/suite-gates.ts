import type { EntryGates } from './evaluate-gates.js';
import { pairedReadingOf, type RegressionGate } from './regression.js';
import { entryLabels } from './task-catalog.js';
import type { ThresholdGate } from './threshold.js';

/** What this needs of a suite (config/'s `SuiteDeclaration`, structurally). */
export interface GatedSuite {
  readonly models: readonly string[];
  readonly tasks: readonly { readonly task: string; readonly gates?: Readonly<Record<string, ThresholdGate>> }[];
  readonly regression?: { readonly margin: number };
}

/** A declared metric as the gates read it (benchmarks' `MetricDeclaration`, structurally). */
export interface GatedMetric {
  readonly name: string;
  readonly unit: string;
  readonly direction: 'higher' | 'lower' | 'none';
}

/**
 * Each entry's threshold gates, labelled (`entryLabels`), over the suite's models, with each
 * gated metric's unit: what {@link evaluateGates} takes. `metricsOf` is `taskCatalog().metricsOf`.
 */
export function suiteEntryGates(suite: GatedSuite, metricsOf: (task: string) => readonly GatedMetric[] | undefined): EntryGates[] {
  const labels = entryLabels(suite.tasks.map((t) => t.task));
  return suite.tasks.map((entry, i) => {
    const gates = entry.gates ?? {};
    const declared = metricsOf(entry.task) ?? [];
    const units = Object.fromEntries(Object.keys(gates).flatMap((metric) => {
      const unit = declared.find((m) => m.name === metric)?.unit;
      return unit === undefined ? [] : [[metric, unit]];
    }));
    return { entry: labels[i] as string, task: entry.task, models: suite.models, gates, units };
  });
}

/**
 * The regression gate of every gated metric of every entry, when the suite has `regression:`
 * (none otherwise): its direction and unit from the declaration, the reading from its unit
 * ({@link pairedReadingOf}), the suite's margin, and `require: non-inferior` where the gate says
 * so. A metric without a better direction is skipped (`validateSuite` refuses such a gate first).
 */
export function suiteRegressionGates(suite: GatedSuite, metricsOf: (task: string) => readonly GatedMetric[] | undefined): { readonly entry: string; readonly task: string; readonly gate: RegressionGate }[] {
  const regression = suite.regression;
  if (regression === undefined) return [];
  const labels = entryLabels(suite.tasks.map((t) => t.task));
  return suite.tasks.flatMap((entry, i) =>
    Object.entries(entry.gates ?? {}).flatMap(([metric, gate]) => {
      const declared = metricsOf(entry.task)?.find((m) => m.name === metric);
      if (declared === undefined || declared.direction === 'none') return [];
      const label = labels[i] as string;
      const regressionGate: RegressionGate = {
        entry: label,
        metric,
        unit: declared.unit,
        reading: pairedReadingOf(declared.unit),
        direction: declared.direction,
        margin: regression.margin,
        ...(gate.require === 'non-inferior' ? { require: 'non-inferior' as const } : {}),
      };
      return [{ entry: label, task: entry.task, gate: regressionGate }];
    }),
  );
}
