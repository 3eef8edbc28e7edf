import type { RunLease, RunRecord, RunStatus } from './records.js';
import type { Store } from './store.js';
import { queueOf } from './run-events.js';

/**
 * What `assay runs` and `assay show` call a run's status: the stored one, except that whether a
 * process is working on it now is read from its lease. `stale`: stored as running, but no
 * process holds a live lease — its holder stopped without saying so (kill -9, a crash, a lost
 * machine). Derived on read, so no process has to be alive to mark it; the stored status stays.
 */
export type RunState = RunStatus | 'stale';

export type StoredLease = RunLease & { readonly live: boolean };

/**
 * A live lease means a process is on the run now; so does a queued run stored as running (workers take its units, see `queue/`) (`running`, even while a resume prepares and
 * the stored status still says how the last session ended); stored `running` without one is `stale`.
 */
export function runState(run: RunRecord, lease: StoredLease | undefined): RunState {
  if (lease?.live) return 'running';
  // A queued run has no lease: its workers hold its units through the queue, and finish it.
  if (queueOf(run) !== undefined && run.status === 'running') return 'running';
  return run.status === 'running' ? 'stale' : run.status;
}

/** The run's state and its lease as stored (live or not), read from the store now. */
export async function readRunState(store: Store, run: RunRecord): Promise<{ state: RunState; lease?: StoredLease }> {
  const lease = await store.runLease(run.id);
  return { state: runState(run, lease), ...(lease ? { lease } : {}) };
}
