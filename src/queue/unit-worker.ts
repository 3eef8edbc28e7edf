import { hostname } from 'node:os';
import { UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import { boundedLogText, boundedText, describeError } from '../core/index.js';
import type { LimiterFactory } from '../models/middleware/limiter.js';
import { DEFAULT_LIMIT_PREFIX, redisLimiters } from '../models/middleware/redis-limiter.js';
import { openRedis } from '../redis/connect.js';
import type { BudgetFactory } from '../runner/budget.js';
import type { EngineSettings } from '../runner/run-spec.js';
import { fleetBudgets } from '../runner/fleet-budget.js';
import { describeStop } from '../runner/fail-fast.js';
import { openRunForWork, type RunDependencies, type RunWorkSession } from '../runner/run.js';
import { workOnSample, type SampleStage } from '../runner/sample-work.js';
import type { CallError, RunRecord, UnitStartState } from '../store/records.js';
import { queueOf } from '../store/run-events.js';
import type { Store } from '../store/store.js';
import { lockDurationMs, MAX_STALLED } from './job-options.js';
import { QUEUE_PREFIX, type QueueLocation } from './queue-location.js';
import { accountUnit } from './run-completion.js';
import { isUnit, unitKey, type Unit } from './unit.js';
import { waitingStore } from './waiting-store.js';
import { FleetStops } from './fleet-stops.js';
import { SESSION_IDLE_MS, sessionIdleMsFromEnv, WorkerSessions } from './worker-sessions.js';

export interface UnitWorkerOptions {
  readonly store: Store;
  readonly queue: QueueLocation;
  /** Units worked on at once by this process (each model's own `--concurrency` still caps its calls). */
  readonly concurrency: number;
  /** Data dir to rebuild tasks from, if not the one each run recorded. */
  readonly dataDir?: string;
  /** Provider keys of this process's environment; never stored. */
  readonly secrets?: RunDependencies['secrets'];
  /** Providers built in code, by model id (tests). */
  readonly providers?: RunDependencies['providers'];
  /**
   * This worker's config file (`assay worker --config`): a queued run's declared names are built
   * from it, never from the run record; a declaration other than the recorded one is each unit's error.
   */
  readonly config?: RunDependencies['config'];
  /**
   * The OpenAI-compatible endpoint this worker's `openai:` models call (`assay worker --base-url`);
   * default: its `OPENAI_BASE_URL`, else api.openai.com. Never a URL a run records: a run that
   * records another is each unit's error (`withWorkerEndpoint`).
   */
  readonly openaiBaseURL?: string;
  /** This worker's engine settings replacing each run's own (`--max-retry-wait`). */
  readonly engine?: Pick<EngineSettings, 'maxRetryWaitMs'>;
  /** Waits before a retry from this long on are told once per model (default 5 s). */
  readonly retryNoticeMs?: number;
  /**
   * Where a run's spending cap is kept. Default: the queue's Redis (`fleetBudgets`), so that
   * `--max-cost` holds over every worker of the fleet together.
   */
  readonly budgets?: BudgetFactory;
  /**
   * Where the models' `--rpm`/`--tpm` limits are kept. Default: the queue's Redis
   * (`redisLimiters` under the default prefix), so that the fleet keeps to one limit per model.
   */
  readonly limiters?: LimiterFactory;
  /**
   * One line per thing worth telling (a run first seen, a unit failed, the queue unreachable): at
   * most {@link MAX_NOTE_CHARS} characters before its marker, every control character made visible.
   */
  readonly onNote?: (line: string) => void;
  /** How long a run's session is kept once none of its units is in flight (default `ASSAY_WORKER_IDLE_MS`, else {@link SESSION_IDLE_MS}). */
  readonly sessionIdleMs?: number;
}

/**
 * A job's data is whatever was put on the queue: a field of it (an id) is shown with at most this
 * many characters, the rest told as a count, so a junk job cannot flood a log or a failed job's
 * reason in Redis. assay's own ids are far shorter.
 */
export const MAX_FIELD_CHARS = 200;
/** The longest note line, before its marker (a provider's error is at most 500 characters of it). */
export const MAX_NOTE_CHARS = 2_000;

/** A field of a job's data as a message quotes it (a note then shows its controls). */
const field = (value: unknown): string => boundedText(String(value), MAX_FIELD_CHARS);

/** What a failed job is told with: its unit's fields when it is one, else its id. */
function failedJobLine(job: Job, attempts: number, error: Error): string {
  const unit: unknown = job.data;
  const what = isUnit(unit) ? `unit ${field(unit.sampleId)} of run ${field(unit.runId)} on ${field(unit.modelId)}` : `job ${field(job.id)}`;
  return `${what}: attempt ${attempts} failed: ${error.message}`;
}

export interface UnitWorker {
  /** Takes no new job; resolves once the jobs in flight are finished and stored. */
  close(): Promise<void>;
}

/**
 * A worker process's share of the fleet: takes units from the queue, `concurrency` at a time, and
 * for each does what an in-process run does for one sample (`workOnSample`), exactly once:
 * - a unit that has a result already (a redelivery) is acknowledged without calling anything;
 * - a result is written at most once per unit (`Store.saveOutcome` is once per unit);
 * - an error while the job has attempts left is not a result: its calls are stored (ledger,
 *   cache, spend) and the job fails to be retried; only the last attempt's error is recorded;
 * - a worker that dies stops renewing its locks, and its jobs go to another (BullMQ's stalled-job
 *   check); calls it had stored answer the next worker from the call cache;
 * - a store that becomes unreachable (PostgreSQL restarting) is waited for (`waitingStore`): the
 *   units in flight keep their outcomes and their job attempts, and save once it is back;
 * - errors that say every unit of a model will fail alike (a wrong key, a model that does not
 *   exist) stop that model over the fleet (`FleetStops`): no new unit of it starts anywhere, the
 *   run is `interrupted` and says why, and `assay resume` goes on once the cause is fixed.
 */
export async function startUnitWorker(options: UnitWorkerOptions): Promise<UnitWorker> {
  const { queue: location } = options;
  const tell = options.onNote ?? (() => undefined);
  // Every line: one line, bounded, controls shown — it may hold job data, a provider's or a store's error.
  const note = (line: string): void => tell(boundedLogText(line, MAX_NOTE_CHARS));
  // Aborted when the worker closes: a store still unreachable then is not waited for any more.
  const closing = new AbortController();
  const store = waitingStore(options.store, { onNote: note, signal: closing.signal });
  const stops = new FleetStops(store);
  const redis = await openRedis(location.url);
  // The limits' and the budget's commands on a connection of their own, apart from BullMQ's.
  const shared = redis.duplicate();
  const deps: RunDependencies = {
    store,
    limiters: options.limiters ?? redisLimiters(shared, { prefix: DEFAULT_LIMIT_PREFIX }),
    budgets: options.budgets ?? fleetBudgets(shared),
    ...(options.secrets ? { secrets: options.secrets } : {}),
    ...(options.providers ? { providers: options.providers } : {}),
    ...(options.config ? { config: options.config } : {}),
    sessionName: 'this worker',
    ...(options.retryNoticeMs !== undefined ? { retryNoticeMs: options.retryNoticeMs } : {}),
    onWarning: (message) => note(`warning: ${message}`),
  };

  /**
   * The run's session, built on the first of its units this process sees, and again for the
   * units a resume queued (`Unit.session`: the run's settings may have changed, its stops are
   * cleared); a failed build is tried again by the next unit. Closed once none of the run's units
   * has been in flight for a while (`WorkerSessions`), its fail-fast streaks forgotten with it.
   */
  const idleMs = options.sessionIdleMs ?? sessionIdleMsFromEnv();
  const sessions = new WorkerSessions<RunWorkSession>(
    async (runId) => {
      const session = await openRunForWork(runId, deps, {
        ...(options.dataDir ? { dataDir: options.dataDir } : {}),
        ...(options.engine ? { engine: options.engine } : {}),
        ...(options.openaiBaseURL !== undefined ? { openaiBaseURL: options.openaiBaseURL } : {}),
      });
      note(`run ${runId}: ${session.run.task} on ${session.run.models.join(', ')}, ${session.sampleCount} samples`);
      return session;
    },
    async (session, key) => {
      stops.forget(key);
      await session.budget?.settle?.();
      await session.close();
      if (!closing.signal.aborted) note(`run ${session.run.id}: no unit of it for ${idleMs / 1000} s, its session closed (built again if more come)`);
    },
    idleMs,
  );

  /** Whether the run's last resume is not the one that queued this unit, as the store says now (a cached session may be older). */
  const supersededInStore = async (unit: Unit): Promise<boolean> => queueSessionOf(await store.getRun(unit.runId)) !== unit.session;

  const work = async (job: Job, token?: string): Promise<string> => {
    const unit: unknown = job.data;
    if (!isUnit(unit)) throw new UnrecoverableError(`job ${field(job.id)} is not an assay unit`);
    const sessionKey = `${unit.runId}\n${unit.session ?? ''}`;
    const held = sessions.acquire(sessionKey, unit.runId);
    try {
      return await workOn(job, token, unit, sessionKey, held.session);
    } finally {
      held.release();
    }
  };

  /** Works on a unit with its run's session (being built, or built). */
  const workOn = async (job: Job, token: string | undefined, unit: Unit, sessionKey: string, building: Promise<RunWorkSession>): Promise<string> => {
    const jobId = job.id as string;
    const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    let session: RunWorkSession;
    try {
      session = await building;
    } catch (error) {
      // The error may quote the run id: bounded like it, since it becomes the job's failed reason in Redis and a log line.
      const message = `run ${field(unit.runId)}: ${boundedText(describeError(error), MAX_NOTE_CHARS)}`;
      const run = last ? await store.getRun(unit.runId) : undefined;
      if (run?.sampleCount === undefined) throw new Error(message);
      // This process cannot rebuild the run (its data, a key): on the last attempt that is the
      // unit's result, so the run ends and says why ("assay resume --retry-errors" goes on).
      await recordWorkerError(store, unit, message);
      await accountUnit(redis, location, store, unit.runId, unitKey(unit), run.sampleCount * run.models.length * (run.repeats ?? 1));
      note(`unit ${field(jobId)}: ${message}`);
      return 'recorded the failure';
    }
    // A unit queued before the run's last resume (which queued it again if it had no result): dropped.
    if (unit.session !== queueSessionOf(session.run)) return `superseded by resume ${queueSessionOf(session.run) ?? '(none)'}`;
    const model = session.model(unit.modelId);
    if (!model) throw new UnrecoverableError(`run ${field(unit.runId)} has no model ${field(unit.modelId)}`);
    const units = session.sampleCount * session.models.length * (session.run.repeats ?? 1);
    // The unit's result and its run as the store says now, in one read (one round trip per unit).
    const now = await store.unitStartState(unit.runId, unit.sampleId, unit.modelId, unit.repeat);
    // A redelivery of a unit whose result is stored: nothing to call, only to count.
    if (now.result !== undefined) {
      await accountUnit(redis, location, store, unit.runId, unitKey(unit), units);
      return 'had its result';
    }
    // As the store says now, not as the cached session does: a unit is started only while its run
    // runs on the queue under the unit's own resume. A unit left from before an interruption (a
    // retry waiting out its backoff, one a stopping worker put back) and taken between the stop and
    // the resume would otherwise run beside the unit the resume queues again for the same sample:
    // the sample answered twice. Left as it is, the resume's own copy of the unit does the work.
    const notStartable = notStartableNow(unit, now.run);
    if (notStartable) return `not started: ${notStartable}`;
    // A model stopped by fail-fast (here or on another worker) starts no new unit: left for resume.
    // The run was read just now: the fleet's stops are taken from that reading, not read again.
    const stopped = await stops.stopFor(sessionKey, session.run, unit.modelId, now.run);
    if (stopped) return `not started: ${stopped.actor} stopped after ${stopped.kind} errors`;
    // Read with the start state: no round trip of its own.
    if (!now.sample) throw new UnrecoverableError(`run ${field(unit.runId)} has no sample ${field(unit.sampleId)}`);
    const sample = session.withHints(now.sample);
    // What the other workers spent counts before this unit starts.
    await session.budget?.refresh?.();
    if (session.budget?.stopReason !== undefined) {
      // No new unit starts once the cap is reached; the run is interrupted and `assay resume` goes
      // on — unless a resume has queued the run again since this session was built (a larger cap).
      if (await supersededInStore(unit)) return 'superseded by a resume';
      await store.setRunStatus(unit.runId, 'interrupted');
      return `not started: ${session.budget.stopReason}`;
    }
    let retryable: CallError | undefined;
    let resulted = false;
    const stage: SampleStage = {
      ...session,
      runId: unit.runId,
      repeats: { count: session.run.repeats ?? 1, seed: session.run.seed },
      // Streaks over this worker's units of the run; a stop is told to the fleet below.
      failFast: stops.failFastFor(sessionKey, session.run),
      // The first signal ends the unit's waits (a retry's sleep, a rate limit's hold), as the first
      // Ctrl-C does in process: a wait is not a call in flight, and it may be minutes long.
      waitSignal: closing.signal,
      saveResult: async (calls, result) => {
        if (result.sampleId === unit.sampleId && result.modelId === unit.modelId && (result.repeat ?? 0) === unit.repeat) resulted = true;
        if (result.status === 'error' && !last) {
          await store.saveCalls(calls);
          retryable = result.error ?? { kind: 'unknown', message: 'no error given' };
          return;
        }
        await store.saveOutcome(calls, result);
      },
    };
    try {
      await workOnSample(stage, model, sample, unit.repeat);
    } catch (error) {
      if (!last) throw error;
      // The last attempt failed outside the model call (the store, the scorer's task): that is the unit's result.
      await recordWorkerError(store, unit, describeError(error));
      resulted = true;
    }
    if (!resulted && closing.signal.aborted) {
      // Cut short by the worker's stop (its calls are stored): back to the queue as it was, its
      // attempt not spent, for this worker's successor or another to take; not counted as done.
      await job.moveToWait(token);
      throw new WaitingError();
    }
    for (const stop of await stops.record(sessionKey, unit.runId, async () => !(await supersededInStore(unit)))) note(`warning: ${describeStop(stop, unit.runId)}`);
    if (retryable) throw new Error(`${retryable.kind}: ${retryable.message}`);
    await accountUnit(redis, location, store, unit.runId, unitKey(unit), units);
    return 'done';
  };

  const lockDuration = lockDurationMs();
  const worker = new Worker(location.name, work, {
    connection: redis,
    prefix: QUEUE_PREFIX,
    concurrency: options.concurrency,
    lockDuration,
    stalledInterval: lockDuration,
    maxStalledCount: MAX_STALLED,
    name: `${hostname()}:${process.pid}`,
  });
  let lastError = 0;
  worker.on('error', (error) => {
    // Redis away: BullMQ reports every failed command; one line every 5 s is enough to say so.
    if (Date.now() - lastError < 5_000) return;
    lastError = Date.now();
    note(`queue: ${describeError(error)} (retrying)`);
  });
  // A unit whose worker stopped renewing its lock (killed, or its event loop stuck past the lock's
  // duration) goes back to the queue. Told with its job id: a unit called twice is always one of these.
  worker.on('stalled', (jobId) => note(`unit ${field(jobId)} stalled (its worker stopped renewing the lock): another worker takes it`));
  worker.on('failed', (job, error) => {
    if (job) note(failedJobLine(job, job.attemptsMade, error));
  });

  return {
    close: async () => {
      closing.abort();
      await worker.close();
      await sessions.closeAll();
      shared.disconnect();
      redis.disconnect();
    },
  };
}

/** A unit whose last attempt failed before it had a result of its own: the failure is its result, so the run can finish. */
async function recordWorkerError(store: Store, unit: Unit, message: string): Promise<void> {
  await store.saveOutcome([], {
    runId: unit.runId,
    sampleId: unit.sampleId,
    modelId: unit.modelId,
    ...(unit.repeat > 0 ? { repeat: unit.repeat } : {}),
    status: 'error',
    output: null,
    score: null,
    error: { kind: 'worker', message },
    cached: false,
    attempts: 0,
    latencyMs: 0,
    usage: {},
    costUsd: null,
    finishedAt: new Date().toISOString(),
  });
}

/** Why the unit must not start, given its run as the store holds it now: not there, superseded by a later resume, or not running; undefined when it may start. */
function notStartableNow(unit: Unit, run: UnitStartState['run']): string | undefined {
  if (run === undefined) return `run ${field(unit.runId)} is not in the store`;
  if (queueSessionOf(run) !== unit.session) return `superseded by resume ${queueSessionOf(run) ?? '(none)'}`;
  if (run.status !== 'running') return `the run is ${run.status} (assay resume queues its units again)`;
  return undefined;
}

/** The session of the resume that queued the run's units last (`Unit.session`); undefined for a run not found or queued by no resume. */
function queueSessionOf(run: Pick<RunRecord, 'events'> | undefined): string | undefined {
  return run === undefined ? undefined : queueOf(run)?.session;
}
