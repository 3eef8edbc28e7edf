import type { SuiteDeclaration } from '../config/index.js';
import { evaluateGates, evaluateRegression, gateExitCode, suiteEntryGates, suiteRegressionGates, taskCatalog, type EntrySummary, type GateResult } from '../gates/index.js';
import { startRun, summarizeStoredRun, type RunDependencies } from '../runner/run.js';
import type { RunSpec } from '../runner/run-spec.js';
import type { RunSummary } from '../analysis/summary.js';
import type { Store } from '../store/store.js';
import { newSuiteRunId, suiteRunsIn, type SuiteMembership } from './membership.js';
import { findBaseline, regressionUnavailable } from './baseline.js';
import { recordSuiteRun } from './stored-gates.js';
import { compareRuns } from '../analysis/compare/compare-runs.js';

/** One entry's run as the suite run ended it. */
export interface SuiteMemberRun {
  readonly entry: number;
  readonly task: string;
  /** Absent: the entry never started (the suite was interrupted before it). */
  readonly run?: string;
  readonly status?: string;
}

export interface SuiteRunResult {
  readonly suiteRun: string;
  readonly suite: string;
  readonly runs: readonly SuiteMemberRun[];
  readonly results: readonly GateResult[];
  /** The baseline suite run or run the regression gates compared with, when one was found. */
  readonly baseline?: string;
  readonly sampleErrors: number;
  readonly interrupted: boolean;
  readonly exitCode: number;
}

export interface SuiteRunHooks {
  /** The dependencies of one entry's run (its progress line, its notices). */
  depsFor(entry: number): RunDependencies;
  /** Told before each entry starts. */
  onEntry?(entry: number, spec: RunSpec): void;
  /** The stop signal of the whole suite: once it fired, no further entry starts. */
  readonly stop: AbortSignal;
  /** Continues a member run that did not finish (`assay resume <suite-run>`). */
  resumeMember?(runId: string, entry: number): Promise<RunSummary>;
}

/**
 * `assay run --suite NAME`, once the CLI has checked the suite and built each entry's `RunSpec`:
 * runs the entries in order (one run each, every run recording its suite run under
 * `suiteRun`), then decides the threshold gates on the runs' summaries and, with
 * `regression:`, the regression gates against the baseline. An interrupted entry stops the suite:
 * the entries after it never start and their gates are inconclusive.
 */
export async function runSuite(store: Store, suite: SuiteDeclaration, specs: readonly RunSpec[], hooks: SuiteRunHooks, continued?: string): Promise<SuiteRunResult> {
  const suiteRun = continued ?? newSuiteRunId();
  // A suite run continued: its finished members are read, its unfinished ones resumed, its entries never started run now.
  const members = continued !== undefined ? suiteRunsIn(await store.listRuns()).get(continued)?.members : undefined;
  const labels = suiteEntryGates(suite, taskCatalog().metricsOf);
  const summaries: { entry: number; summary: RunSummary }[] = [];
  const runs: SuiteMemberRun[] = [];
  let interrupted = false;
  for (const [i, spec] of specs.entries()) {
    if (interrupted || hooks.stop.aborted) {
      interrupted = true;
      runs.push({ entry: i, task: spec.task });
      continue;
    }
    const earlier = members?.get(i);
    let summary: RunSummary;
    if (earlier !== undefined && earlier.task === spec.task) {
      summary = earlier.status === 'finished' || !hooks.resumeMember ? await summarizeStoredRun(store, earlier.id) : await hooks.resumeMember(earlier.id, i);
    } else {
      const membership: SuiteMembership = { id: suiteRun, suite: suite.name, entry: i, entries: specs.length };
      const member: RunSpec = { ...spec, suiteRun: membership };
      hooks.onEntry?.(i, member);
      summary = await startRun(member, hooks.depsFor(i));
    }
    summaries.push({ entry: i, summary });
    runs.push({ entry: i, task: spec.task, run: summary.run, status: summary.status });
    if (summary.status === 'interrupted') interrupted = true;
  }
  const result = await decideSuite(store, suite, suiteRun, runs, summaries, interrupted);
  // Ended (not interrupted): its gates recorded as decided now, for show and last-passing.
  await recordSuiteRun(store, result, suite.strict === true);
  return result;
}

/** The gates of a suite run whose member runs ended with these summaries. */
export async function decideSuite(
  store: Store,
  suite: SuiteDeclaration,
  suiteRun: string,
  runs: readonly SuiteMemberRun[],
  summaries: readonly { entry: number; summary: RunSummary }[],
  interrupted: boolean,
): Promise<SuiteRunResult> {
  const catalog = taskCatalog();
  const entryGates = suiteEntryGates(suite, catalog.metricsOf);
  const entrySummaries: EntrySummary[] = summaries.map(({ entry, summary }) => ({ entry: entryGates[entry]?.entry as string, summary }));
  const results: GateResult[] = evaluateGates(entrySummaries, entryGates);
  let baselineId: string | undefined;
  const regressionGates = suiteRegressionGates(suite, catalog.metricsOf);
  if (regressionGates.length > 0 && suite.regression) {
    const baseline = await findBaseline(store, suite, suiteRun, suite.regression.baseline);
    if (baseline.found) baselineId = baseline.id;
    for (const [i, label] of entryGates.entries()) {
      const gates = regressionGates.filter((g) => g.entry === label.entry);
      if (gates.length === 0) continue;
      const candidate = runs[i]?.run;
      const base = baseline.found ? baseline.runOf(i, label.task) : undefined;
      const why = !baseline.found ? baseline.reason : candidate === undefined ? 'this entry did not run' : base === undefined ? `baseline ${baseline.id} has no ${label.task} run for this entry` : undefined;
      if (why !== undefined || candidate === undefined || base === undefined) {
        for (const { gate } of gates) results.push(...regressionUnavailable(label.entry, label.task, suite.models, gate, why ?? 'no baseline'));
        continue;
      }
      const comparison = await compareRuns(store, base, candidate);
      for (const { gate } of gates) results.push(...evaluateRegression(comparison, gate));
    }
  }
  const sampleErrors = summaries.reduce((sum, { summary }) => sum + Object.values(summary.models).reduce((s, m) => s + m.counts.errors, 0), 0);
  const exitCode = gateExitCode({ results, ...(suite.strict !== undefined ? { strict: suite.strict } : {}), sampleErrors, interrupted });
  return { suiteRun, suite: suite.name, runs, results, ...(baselineId !== undefined ? { baseline: baselineId } : {}), sampleErrors, interrupted, exitCode };
}

/** The suite a stored suite run ran, by its member runs' records; undefined when no run carries the id. */
export async function storedSuiteRun(store: Store, suiteRun: string): Promise<{ readonly suite: string; readonly entries: number } | undefined> {
  const group = suiteRunsIn(await store.listRuns()).get(suiteRun);
  return group ? { suite: group.suite, entries: group.entries } : undefined;
}

/**
 * A stored suite run's gates decided again from its member runs' stored results (`assay show
 * <suite-run>`), with the suite's gates as the config file declares them now: an entry with no
 * member run never started (its gates inconclusive), and a member that did not finish makes the
 * suite run interrupted.
 */
export async function decideStoredSuiteRun(store: Store, suite: SuiteDeclaration, suiteRun: string): Promise<SuiteRunResult> {
  const group = suiteRunsIn(await store.listRuns()).get(suiteRun);
  const runs: SuiteMemberRun[] = [];
  const summaries: { entry: number; summary: RunSummary }[] = [];
  let interrupted = false;
  for (const [i, entry] of suite.tasks.entries()) {
    const member = group?.members.get(i);
    if (!member || member.task !== entry.task) {
      interrupted = true;
      runs.push({ entry: i, task: entry.task });
      continue;
    }
    const summary = await summarizeStoredRun(store, member.id);
    summaries.push({ entry: i, summary });
    runs.push({ entry: i, task: entry.task, run: member.id, status: summary.status });
    if (summary.status !== 'finished') interrupted = true;
  }
  return decideSuite(store, suite, suiteRun, runs, summaries, interrupted);
}
