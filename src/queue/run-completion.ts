import type { Redis } from 'ioredis';
import type { Store } from '../store/store.js';
import { QUEUE_PREFIX, type QueueLocation } from './queue-location.js';

/**
 * Who marks a queued run finished: the worker that accounts for its last unit. Each worker, once
 * a unit has its result (written now, or found written by an earlier delivery), adds the unit's
 * key (`unitKey`, the same for every submission of the unit) to the run's set in Redis and reads the set's size in the same command; the worker
 * that sees it reach the run's number of units sets the run `finished` in the store. Adding is
 * idempotent, so a redelivered unit (its first worker killed after writing the result but before
 * adding) is counted once and is never missed. The attached submitter also sets it when it sees
 * every result; whichever comes first, the status is the same.
 */
export async function accountUnit(redis: Redis, location: QueueLocation, store: Store, runId: string, unit: string, units: number): Promise<boolean> {
  const key = doneKey(location, runId);
  const count = Number(await redis.eval(ADD_AND_COUNT, 1, key, unit));
  if (count < units) return false;
  await store.setRunStatus(runId, 'finished');
  // The set is only for counting: a day later nobody needs it.
  await redis.expire(key, 24 * 3600);
  return true;
}

/**
 * Counts these units as having their results (their keys), for a run queued again (`assay resume
 * --queue`): its set may have expired, or be on another queue, and must hold every unit that has
 * a result before the resumed units are counted in.
 */
export async function countUnitsDone(redis: Redis, location: QueueLocation, runId: string, units: readonly string[]): Promise<void> {
  const key = doneKey(location, runId);
  for (let from = 0; from < units.length; from += 1_000) await redis.sadd(key, ...units.slice(from, from + 1_000));
}

/**
 * Adds a unit's key to the run's set and returns the set's size, atomically, in one command. Not
 * `MULTI` (`redis.multi().sadd().scard()`): ioredis builds a pipeline for each, copying onto it
 * every script defined on the connection — BullMQ's ~50 on the worker's — which cost ~40 µs of
 * CPU per unit, more than the rest of the accounting (docs/benchmarks.md).
 */
const ADD_AND_COUNT = "redis.call('SADD', KEYS[1], ARGV[1]); return redis.call('SCARD', KEYS[1])";

const doneKey = (location: QueueLocation, runId: string): string => `${QUEUE_PREFIX}:${location.name}:run:${runId}:done`;
