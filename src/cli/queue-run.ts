import { InputError } from '../core/index.js';
import { followRun } from '../queue/follow.js';
import { queueLocation, type QueueLocation } from '../queue/queue-location.js';
import { resubmitRun } from '../queue/resubmit.js';
import { submitRun } from '../queue/submit.js';
import { waitingStore } from '../queue/waiting-store.js';
import { summarizeStoredRun } from '../runner/run.js';
import type { EngineSettings, RunSpec } from '../runner/run-spec.js';
import type { RunRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import { parseStoreUrl, redactStoreUrl } from '../store/store-url.js';
import { createProgressReporter, type ProgressReporter } from './progress.js';
import { EXIT, exitCodeFor, interruptSignal, printSummary, withStore } from './shared.js';
import { printErr, printOut } from './terminal.js';
import type { AssayConfig } from '../config/load-config.js';

export interface QueueRunFlags {
  readonly queue: string;
  readonly queueName?: string;
  readonly detach?: boolean;
  readonly db: string;
  readonly json?: boolean;
  /** The submitter's config file: the run records its declared models' declarations (workers build them from their own file). */
  readonly declared?: AssayConfig;
}

/**
 * `assay run … --queue redis://… --db postgres://…`: records the run and enqueues its units for
 * `assay worker`s; then follows it from the store and prints the summary an in-process run
 * prints, or with `--detach` prints the run id and returns. The store must be one every worker
 * reaches: a SQLite file is refused.
 */
export async function queueRunCommand(spec: RunSpec, flags: QueueRunFlags): Promise<number> {
  const location = queueLocation(flags.queue, flags.queueName);
  checkFleetStore(flags.db);
  return withStore(flags.db, async (store) => {
    const progress = createProgressReporter(spec.task);
    const { run, units } = await submitRun(spec, { store, queue: location, ...(flags.declared ? { config: flags.declared } : {}), onWarning: (message) => progress.note(`warning: ${message}`) });
    return followQueued(store, run, units, location, flags, progress);
  });
}

/**
 * `assay resume <run> --queue redis://… --db postgres://…`: queues again the units of a stopped
 * run that have no result, with `engine` (the settings given on the command line) in place of
 * the run's own, for `assay worker`s; then follows it as `run --queue` does.
 */
export async function queueResumeCommand(runId: string, engine: Partial<EngineSettings>, flags: QueueRunFlags): Promise<number> {
  const location = queueLocation(flags.queue, flags.queueName);
  checkFleetStore(flags.db);
  return withStore(flags.db, async (store) => {
    const onWaitInFlight = (units: number): void => printErr(`run ${runId}: waiting for ${units} of its units still in flight on workers (started before it stopped) to end\n`);
    const { run, units } = await resubmitRun(runId, { store, queue: location, engine, onWaitInFlight });
    if (units === 0) {
      printErr(`run ${run.id} has a result for every unit: nothing to queue\n`);
      const summary = await summarizeStoredRun(store, run.id);
      await printSummary(summary, Boolean(flags.json));
      return exitCodeFor(summary);
    }
    return followQueued(store, run, units, location, flags, createProgressReporter(`resume ${run.id}`));
  });
}

/** The store must be one every worker reaches: a SQLite file is refused. */
function checkFleetStore(db: string): void {
  if (parseStoreUrl(db).backend !== 'postgres') {
    throw new InputError(`--queue needs a store every worker reaches: give --db postgres://…; ${redactStoreUrl(db)} is a SQLite file on this machine`);
  }
}

/** Says what was queued, then returns (`--detach`) or follows the run from the store and prints its summary. */
async function followQueued(store: Store, run: RunRecord, units: number, location: QueueLocation, flags: QueueRunFlags, progress: ProgressReporter): Promise<number> {
  const db = redactStoreUrl(flags.db);
  printErr(`run ${run.id}: ${run.task} on ${run.models.join(', ')}${run.judge ? `, judge ${run.judge.model}` : ''}: ${units} units queued on ${location.name} (db ${db})\n`);
  if (flags.detach) {
    progress.stop();
    printOut(flags.json ? `${JSON.stringify({ run: run.id, units, queue: location.name })}\n` : `${run.id}\n`);
    printErr(`workers take it from the queue (assay worker --queue … --db …); follow it with: assay show ${run.id} --db ${db}\n`);
    return EXIT.ok;
  }
  // Ctrl-C stops following, not the run: the workers go on.
  const { stop, dispose } = interruptSignal(true);
  try {
    // The store restarting while the workers run is waited out here too; Ctrl-C stops waiting.
    const following = waitingStore(store, { onNote: (line) => progress.note(line), signal: stop });
    const status = await followRun(following, run, { onProgress: (e) => progress.update(e), stop });
    progress.stop();
    if (status === 'detached') {
      printErr(`run ${run.id} goes on in the workers; assay show ${run.id} --db ${db}\n`);
      return EXIT.interrupted;
    }
    const summary = await summarizeStoredRun(following, run.id);
    await printSummary(summary, Boolean(flags.json));
    return exitCodeFor(summary);
  } finally {
    progress.stop();
    dispose();
  }
}
