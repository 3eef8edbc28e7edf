import { Queue, type JobsOptions } from 'bullmq';
import { InputError, parseModelId } from '../core/index.js';
import { newRunRecord, type RunDependencies } from '../runner/run.js';
import { storedChunk } from '../runner/stored-sample.js';
import type { RunSpec } from '../runner/run-spec.js';
import type { RunRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import { JOB_ATTEMPTS, JOB_BACKOFF_MS } from './job-options.js';
import { checkRedis, openRedis } from '../redis/connect.js';
import { QUEUE_PREFIX, type QueueLocation } from './queue-location.js';
import { refuseQueuedBaseURL } from './queued-base-url.js';
import { unitJobId, type Unit } from './unit.js';

/** Jobs per `addBulk`: one round trip each, small enough not to hold Redis long. */
export const ENQUEUE_CHUNK = 500;

/** The units' jobs, as `addBulk` takes them: each with its id (`unitJobId`), its attempts and backoff; a completed job is removed, the last 10,000 failed ones kept. */
export function unitJobs(units: readonly Unit[]): { name: string; data: Unit; opts: JobsOptions }[] {
  return units.map((unit) => ({ name: 'unit', data: unit, opts: { jobId: unitJobId(unit), attempts: JOB_ATTEMPTS, backoff: { type: 'exponential', delay: JOB_BACKOFF_MS }, removeOnComplete: true, removeOnFail: { count: 10_000 } } }));
}

/**
 * Records a new run with its samples, a chunk at a time, and enqueues one job per unit (sample × model). Redis is
 * checked before anything is recorded; the run is recorded before its units are enqueued, so a
 * worker never takes a unit of a run it cannot find. If enqueueing fails half-way, the run is
 * marked `failed` and the error is one line (the jobs enqueued already are of a failed run:
 * workers would record them, nothing more). Provider keys are not needed here: workers have them,
 * and their endpoints (a base URL in `spec.engine` is refused: `refuseQueuedBaseURL`).
 */
export async function submitRun(spec: RunSpec, deps: { readonly store: Store; readonly queue: QueueLocation; readonly config?: RunDependencies['config']; readonly onWarning?: (message: string) => void }): Promise<{ run: RunRecord; units: number }> {
  // A name without `:` is declared in the config file; the run records its declaration, and each worker builds it from its own file.
  spec.models.filter((id) => id.includes(':')).forEach((id) => parseModelId(id));
  refuseQueuedBaseURL(spec.engine);
  await checkRedis(deps.queue.url, '--queue');
  // The submitter calls no model: its environment need not hold the models' keys (the workers' does).
  const { run: fresh, prepared } = await newRunRecord(spec, deps, { checkModelsReady: false });
  const count = prepared.samples.length;
  const run: RunRecord = { ...fresh, events: [{ type: 'submitted', at: fresh.createdAt, queue: deps.queue.name }] };
  // The run is recorded with its first samples (and its sample count); each further chunk is
  // built and stored just before its units are enqueued, so a worker never takes a unit whose
  // sample is not stored, and neither this process nor one write holds the whole run.
  let chunk = storedChunk(prepared.samples, 0, ENQUEUE_CHUNK);
  await deps.store.createRun({ ...run, sampleCount: count }, chunk);
  const redis = await openRedis(deps.queue.url, { maxRetriesPerRequest: 3 });
  const queue = new Queue(deps.queue.name, { connection: redis, prefix: QUEUE_PREFIX });
  queue.on('error', () => undefined);
  let units = 0;
  try {
    for (let from = 0; from < count; from += ENQUEUE_CHUNK) {
      if (from > 0) {
        chunk = storedChunk(prepared.samples, from, from + ENQUEUE_CHUNK);
        await deps.store.addSamples(run.id, chunk);
      }
      const repeats = Array.from({ length: run.repeats ?? 1 }, (_, r) => r);
      const jobs = unitJobs(chunk.flatMap((sample) => run.models.flatMap((modelId) => repeats.map((repeat): Unit => ({ runId: run.id, sampleId: sample.id, modelId, repeat })))));
      await queue.addBulk(jobs);
      units += jobs.length;
    }
  } catch (error) {
    await deps.store.setRunStatus(run.id, 'failed');
    throw new InputError(`run ${run.id}: storing its samples and enqueueing its units failed after ${units} of ${count * run.models.length * (run.repeats ?? 1)} units (${(error as Error).message}); the run is marked failed`);
  } finally {
    await queue.close().catch(() => undefined);
    redis.disconnect();
  }
  return { run, units };
}
