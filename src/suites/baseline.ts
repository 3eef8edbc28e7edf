import type { SuiteDeclaration } from '../config/index.js';
import { evaluateGates, formatFigure, suiteEntryGates, taskCatalog, type GateResult, type RegressionGate } from '../gates/index.js';
import { summarizeStoredRun } from '../runner/run.js';
import type { Store } from '../store/store.js';
import { startedBefore, suiteRunsIn } from './membership.js';
import { recordPassed } from './stored-gates.js';

/** The baseline of a suite's regression gates, or why there is none. */
export type SuiteBaseline =
  | { readonly found: true; readonly id: string; runOf(entry: number, task: string): string | undefined }
  | { readonly found: false; readonly reason: string };

/**
 * `regression.baseline`: `last-passing` — the newest earlier suite run of the same suite whose
 * every entry finished and whose gates, as recorded when it ended, passed (`recordPassed`: none
 * failed, nor under its `strict` was a threshold gate inconclusive); a suite run that recorded
 * none (from before they were recorded) has its threshold gates decided again as the suite
 * declares them now —,
 * or an id: a suite run's (each entry compared with the same entry of it) or one run's (compared
 * with the entries of its task).
 */
export async function findBaseline(store: Store, suite: SuiteDeclaration, current: string, baseline: string): Promise<SuiteBaseline> {
  const suiteRuns = suiteRunsIn(await store.listRuns());
  if (baseline === 'last-passing') {
    const entryGates = suiteEntryGates(suite, taskCatalog().metricsOf);
    // A suite run with no run stored yet has not started: every stored one is earlier.
    const now = { id: current, startedAt: suiteRuns.get(current)?.startedAt ?? '\uffff' };
    for (const [id, group] of suiteRuns) {
      // Earlier suite runs only (`assay show` of an old suite run does not compare it with later ones).
      if (!startedBefore({ id, startedAt: group.startedAt }, now) || group.suite !== suite.name || group.entries !== suite.tasks.length) continue;
      const members = suite.tasks.map((t, i) => group.members.get(i)).filter((r, i) => r !== undefined && r.task === suite.tasks[i]?.task && r.status === 'finished');
      if (members.length !== suite.tasks.length) continue;
      // Its gates as recorded when it ended, when it recorded them.
      const recorded = await store.suiteRun(id);
      if (recorded !== undefined) {
        if (recordPassed(recorded)) return { found: true, id, runOf: (entry) => group.members.get(entry)?.id };
        continue;
      }
      // A suite run from before gates were recorded: its threshold gates decided again from its
      // runs' stored results, with the suite's gates as declared now (what this did before).
      const summaries = await Promise.all(members.map(async (r, i) => ({ entry: entryGates[i]?.entry as string, summary: await summarizeStoredRun(store, (r as { id: string }).id) })));
      // Passed as its exit code says: no gate failed (nor, under strict, was inconclusive).
      if (evaluateGates(summaries, entryGates).every((g) => g.outcome === 'pass' || (g.outcome === 'inconclusive' && suite.strict !== true))) {
        return { found: true, id, runOf: (entry) => group.members.get(entry)?.id };
      }
    }
    return { found: false, reason: `no baseline: no earlier run of suite ${suite.name} passed its gates (last-passing)` };
  }
  const group = suiteRuns.get(baseline);
  if (group) return { found: true, id: baseline, runOf: (entry, task) => (group.members.get(entry)?.task === task ? group.members.get(entry)?.id : undefined) };
  const run = (await store.listRuns()).find((r) => r.id === baseline || r.id.startsWith(baseline));
  if (!run) return { found: false, reason: `baseline ${baseline}: no such run or suite run in the store` };
  return { found: true, id: run.id, runOf: (_entry, task) => (run.task === task ? run.id : undefined) };
}

/** A regression gate that could not be checked (no baseline, the entry did not run): inconclusive for each model, with the reason. */
export function regressionUnavailable(entry: string, task: string, models: readonly string[], gate: RegressionGate, reason: string): GateResult[] {
  const rule = gate.require === 'non-inferior' ? `non-inferior: no worse than ${formatFigure(-gate.margin, gate.unit, true)} vs baseline` : `no regression beyond ${formatFigure(-gate.margin, gate.unit, true)} vs baseline`;
  return models.map((model) => ({ kind: 'regression', entry, task, model, metric: gate.metric, ...(gate.unit !== undefined ? { unit: gate.unit } : {}), rule, outcome: 'inconclusive', value: null, interval: null, relation: 'none', reason }));
}

/**
 * Why a baseline named by id (`regression.baseline: <id>`, `--baseline <id>`) cannot be this
 * suite's, checked before its first entry runs; undefined when it can (and for `last-passing`,
 * looked for once the suite has run). A suite run must be one of this suite; a run must be of a
 * task the suite runs; either must be in the store.
 */
export async function baselineProblem(store: Store, suite: SuiteDeclaration, baseline: string): Promise<string | undefined> {
  if (baseline === 'last-passing') return undefined;
  const runs = await store.listRuns();
  const group = suiteRunsIn(runs).get(baseline);
  if (group) return group.suite === suite.name ? undefined : `baseline ${baseline} is a run of suite ${group.suite}, not of ${suite.name}`;
  if (baseline.startsWith('suite-')) return `baseline ${baseline}: no such suite run in the store`;
  const matching = runs.filter((r) => r.id === baseline || r.id.startsWith(baseline));
  const run = matching.find((r) => r.id === baseline) ?? (matching.length === 1 ? matching[0] : undefined);
  if (!run) return matching.length > 1 ? `baseline ${baseline}: the prefix names ${matching.length} runs; give more of the id` : `baseline ${baseline}: no such run or suite run in the store`;
  const tasks = [...new Set(suite.tasks.map((t) => t.task))];
  return tasks.includes(run.task) ? undefined : `baseline ${run.id} is a run of ${run.task}, a task suite ${suite.name} does not run (${tasks.join(', ')})`;
}
