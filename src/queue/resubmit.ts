import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { withCredentialsHidden } from '../runner/recorded-base-url.js';
import { InputError } from '../core/index.js';
import { recordedEngineSettings, requireRun } from '../runner/run.js';
import type { EngineSettings } from '../runner/run-spec.js';
import type { RunRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import { queueOf } from '../store/run-events.js';
import { checkRedis, openRedis } from '../redis/connect.js';
import { QUEUE_PREFIX, type QueueLocation } from './queue-location.js';
import { refuseQueuedBaseURL } from './queued-base-url.js';
import { countUnitsDone } from './run-completion.js';
import { ENQUEUE_CHUNK, unitJobs } from './submit.js';
import { unitKey, type Unit } from './unit.js';
import { untilNoUnitInFlight } from './units-in-flight.js';

/** Samples read per page when listing what a run still has to do. */
const PAGE = 2_000;

/**
 * Queues again the units of a stopped run that have no result (`assay resume <run> --queue`):
 * a run its budget or a fail-fast stop interrupted, or one made in one process on a PostgreSQL
 * store. The run is set `running` with the engine settings given here in place of its own (the
 * workers read them from the store; its fail-fast stops are cleared); the units that have their
 * result are counted for its completion, and the rest are queued under a token of this resume
 * (`Unit.session`: new jobs, and a new session on each worker). Units that ended in error keep
 * their result (`--retry-errors` is the in-process resume's). Refused, with nothing changed: a run
 * another process holds, one still running on the queue, one that stopped before storing all its
 * samples. Returns how many units were queued (0: the run had nothing left; it is then finished).
 */
export async function resubmitRun(
  runIdOrPrefix: string,
  deps: {
    readonly store: Store;
    readonly queue: QueueLocation;
    readonly engine: Partial<EngineSettings>;
    /** Told once, with how many, when units started before the run stopped are still in flight and waited for. */
    readonly onWaitInFlight?: (units: number) => void;
  },
): Promise<{ run: RunRecord; units: number }> {
  const { store } = deps;
  refuseQueuedBaseURL(deps.engine);
  await checkRedis(deps.queue.url, '--queue');
  const run = await requireRun(store, runIdOrPrefix);
  const lease = await store.runLease(run.id);
  if (lease?.live) throw new InputError(`run ${run.id} is being run by pid ${lease.holder.pid} on ${lease.holder.host} (its lease is live); resume it once that process has stopped`);
  if (run.status === 'running') {
    throw new InputError(`run ${run.id} is still running${queueOf(run) ? ` on queue ${queueOf(run)?.name}: workers are taking its units` : ''}; resume it once it has stopped (assay show ${run.id} says how it stands)`);
  }
  const redis = await openRedis(deps.queue.url, { maxRetriesPerRequest: 3 });
  const queue = new Queue(deps.queue.name, { connection: redis, prefix: QUEUE_PREFIX });
  queue.on('error', () => undefined);
  try {
    return await requeue(run, queue, redis, deps);
  } finally {
    await queue.close().catch(() => undefined);
    redis.disconnect();
  }
}

/** `resubmitRun` once the run is found stopped, on the run's queue. */
async function requeue(run: RunRecord, queue: Queue, redis: Redis, deps: Parameters<typeof resubmitRun>[1]): Promise<{ run: RunRecord; units: number }> {
  const { store } = deps;
  // A unit a worker started before the run stopped may still be calling its model, its result not
  // stored yet: queued again now, the resume's copy would be taken beside it and the sample
  // answered twice. Its end is waited for. No unit of the run starts any more meanwhile (each
  // checks in the store that the run is running before it starts), so once none is in flight the
  // results read next are the last the earlier submission writes.
  await untilNoUnitInFlight(queue, redis, run.id, deps.onWaitInFlight);
  const { todo, done } = await unitsOf(store, run);
  if (todo.length === 0) {
    if (run.status !== 'finished') await store.setRunStatus(run.id, 'finished');
    return { run: { ...run, status: 'finished' }, units: 0 };
  }
  const session = `r${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
  // The resume's token goes with the run: a unit queued before it, still in the queue, is dropped by the worker that takes it.
  // A base URL the run recorded (an earlier assay's queued run, or one made in one process) stays,
  // credentials hidden: workers never call it, and refuse the run's units unless it is their own endpoint.
  const engine = withCredentialsHidden({ ...run.engine, ...deps.engine });
  recordedEngineSettings({ ...run, engine });
  let queued = 0;
  try {
    // Those with a result first: a unit of this resume finishing must find them counted.
    await countUnitsDone(redis, deps.queue, run.id, done);
    await store.continueRun(run.id, engine, { queue: deps.queue.name, session });
    for (let from = 0; from < todo.length; from += ENQUEUE_CHUNK) {
      const chunk = todo.slice(from, from + ENQUEUE_CHUNK).map((u): Unit => ({ ...u, session }));
      await queue.addBulk(unitJobs(chunk));
      queued += chunk.length;
    }
  } catch (error) {
    await store.setRunStatus(run.id, 'interrupted').catch(() => undefined);
    throw new InputError(`run ${run.id}: queueing its units again failed after ${queued} of ${todo.length} (${(error as Error).message}); the run is left interrupted, resume it again`);
  }
  return { run: { ...run, status: 'running', engine }, units: queued };
}

/** The run's units without a result (to queue), and the keys of those with one (to count), read a page of samples at a time. */
async function unitsOf(store: Store, run: RunRecord): Promise<{ todo: Unit[]; done: string[] }> {
  // Per model and repeat (`JSON [model, repeat]`), the samples with a result.
  const repeats = Array.from({ length: run.repeats ?? 1 }, (_, r) => r);
  const finished = new Map<string, Set<string>>();
  for (const modelId of run.models) {
    for (const repeat of repeats) finished.set(JSON.stringify([modelId, repeat]), await store.finishedSampleIds(run.id, modelId, { includeErrors: true, ...(repeat > 0 ? { repeat } : {}) }));
  }
  const todo: Unit[] = [];
  const done: string[] = [];
  let stored = 0;
  for (let from = 0; ; from += PAGE) {
    const page = await store.loadSamples(run.id, { from, limit: PAGE });
    stored += page.length;
    for (const sample of page) {
      for (const modelId of run.models) {
        for (const repeat of repeats) {
          const unit: Unit = { runId: run.id, sampleId: sample.id, modelId, repeat };
          if (finished.get(JSON.stringify([modelId, repeat]))?.has(sample.id)) done.push(unitKey(unit));
          else todo.push(unit);
        }
      }
    }
    if (page.length < PAGE) break;
  }
  if (run.sampleCount !== undefined && stored < run.sampleCount) {
    throw new InputError(`run ${run.id} stopped before storing its last ${run.sampleCount - stored} samples: resume it in one process (assay resume ${run.id} --db …), which stores them`);
  }
  return { todo, done };
}
