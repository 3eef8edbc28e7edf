import type { StoredGateOutcome, SuiteRunRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import type { SuiteRunResult } from './run-suite.js';

/**
 * A suite run's gates as the store records them (`Store.saveSuiteRun`): written once the suite
 * run ends (every entry's run ended, whether by `run --suite` or by `resume <suite-run>` to the
 * end), read by `assay show <suite-run>` and by the `last-passing` baseline, so neither decides
 * them again with the config file as it is now. An interrupted suite run records none: its
 * resume decides them.
 */
export async function recordSuiteRun(store: Store, result: SuiteRunResult, strict: boolean, decidedAt: Date = new Date()): Promise<SuiteRunRecord | undefined> {
  if (result.interrupted) return undefined;
  const record: SuiteRunRecord = {
    id: result.suiteRun,
    suite: result.suite,
    decidedAt: decidedAt.toISOString(),
    runs: result.runs.map((r) => ({ entry: r.entry, task: r.task, ...(r.run !== undefined ? { run: r.run } : {}), ...(r.status !== undefined ? { status: r.status } : {}) })),
    gates: result.results.map((g): StoredGateOutcome => ({ ...g })),
    ...(result.baseline !== undefined ? { baseline: result.baseline } : {}),
    strict,
    sampleErrors: result.sampleErrors,
    interrupted: result.interrupted,
    exitCode: result.exitCode,
  };
  await store.saveSuiteRun(record);
  return record;
}

/** A recorded suite run as `run --suite` printed it (its `--json` shape), with when its gates were decided. */
export function resultOfRecord(record: SuiteRunRecord): SuiteRunResult & { readonly decidedAt: string } {
  return {
    suiteRun: record.id,
    suite: record.suite,
    runs: record.runs,
    results: record.gates,
    ...(record.baseline !== undefined ? { baseline: record.baseline } : {}),
    sampleErrors: record.sampleErrors,
    interrupted: record.interrupted,
    exitCode: record.exitCode,
    decidedAt: record.decidedAt,
  };
}

/**
 * Whether a recorded suite run passed its gates, for `last-passing`: it ended (every entry's run
 * did), no gate failed, and — under the `strict:` it ran with — no threshold gate was
 * inconclusive. Regression gates left inconclusive for want of a baseline do not count against
 * it, as they did not when the gates were decided again: otherwise a strict suite's first run
 * could never become the baseline of the next.
 */
export function recordPassed(record: SuiteRunRecord): boolean {
  if (record.interrupted || record.runs.some((r) => r.status !== 'finished')) return false;
  return record.gates.every((g) => g.outcome === 'pass' || (g.outcome === 'inconclusive' && (!record.strict || g.kind === 'regression')));
}
