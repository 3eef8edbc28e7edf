import { compareRuns } from '../analysis/compare/compare-runs.js';
import type { RunComparison } from '../analysis/compare/run-comparison.js';
import type { Store } from '../store/store.js';
import { buildRunReport, DEFAULT_DETAILS, RUN_REPORT_SCHEMA, type DetailsPolicy, type ReportBundle } from './run-report.js';
import { toolkitVersion } from '../version.js';

/**
 * What `assay compare <A> <B> -o file.html` draws: the comparison (`RunComparison`, as the
 * console and `--json` print it) and both runs' reports (run A first), whose details carry the
 * samples the comparison points at.
 */
export interface ComparisonReport {
  readonly comparison: RunComparison;
  readonly bundle: ReportBundle;
}

/**
 * The samples a reader of a comparison looks at first: those that changed, still fail, lack a
 * verdict or ended in error on a side. Their rows' details go in the file before any other.
 */
export function samplesToShow(comparison: RunComparison): Set<string> {
  const ids = new Set<string>();
  for (const c of comparison.comparisons) {
    const b = c.passFail?.buckets;
    for (const list of [b?.newlyFailing, b?.newlyPassing, b?.stillFailing, b?.noVerdict, c.value?.noVerdictIds, c.errorIds]) for (const id of list ?? []) ids.add(id);
  }
  return ids;
}

/** Compares two runs and builds both reports (details: the samples to show first, then as `details` says). */
export async function buildComparisonReport(store: Store, runA: string, runB: string, details: DetailsPolicy = DEFAULT_DETAILS): Promise<ComparisonReport> {
  const comparison = await compareRuns(store, runA, runB);
  const focus = samplesToShow(comparison);
  const runs = [await buildRunReport(store, comparison.runA.id, { details, focus }), await buildRunReport(store, comparison.runB.id, { details, focus })];
  return { comparison, bundle: { schema: RUN_REPORT_SCHEMA, generatedAt: new Date().toISOString(), toolkitVersion, runs } };
}
