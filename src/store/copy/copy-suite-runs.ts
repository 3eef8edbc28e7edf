import type { RunRecord } from '../records.js';
import type { Store } from '../store.js';

/** What became of one suite run's recorded gates. */
export interface SuiteRunCopy {
  readonly suiteRun: string;
  readonly status: 'copied' | 'already there' | 'none recorded';
}

/**
 * The recorded gates (`suite_runs`) of the suite runs that `runs` are members of, copied from
 * `source` to `target` after their runs (`assay migrate`): without them, `show <suite-run>` and
 * `last-passing` on the target would decide the gates again from the config file as it is now.
 * A record the target holds the same is left; one it holds otherwise is replaced (a later
 * resume to the end replaces a suite run's record too: the source's is the one its runs match).
 * A suite run that recorded none (interrupted, or older than recorded gates) has nothing to copy.
 */
export async function copySuiteRuns(source: Store, target: Store, runs: readonly RunRecord[]): Promise<SuiteRunCopy[]> {
  const ids = [...new Set(runs.flatMap((run) => (run.suiteRun !== undefined ? [run.suiteRun.id] : [])))].sort();
  const copies: SuiteRunCopy[] = [];
  for (const suiteRun of ids) {
    const record = await source.suiteRun(suiteRun);
    if (record === undefined) {
      copies.push({ suiteRun, status: 'none recorded' });
      continue;
    }
    const there = await target.suiteRun(suiteRun);
    if (there !== undefined && JSON.stringify(there) === JSON.stringify(record)) {
      copies.push({ suiteRun, status: 'already there' });
      continue;
    }
    await target.saveSuiteRun(record);
    copies.push({ suiteRun, status: 'copied' });
  }
  return copies;
}
