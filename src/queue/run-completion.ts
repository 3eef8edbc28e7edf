import type { Redis } from 'ioredis';
import type { Store } from '../store/store.js';
import { QUEUE_PREFIX, type QueueLocation } from './queue-connection.js';

/**
 * Who marks a queued run finished: the worker that accounts for its last unit. Each worker, once
 * a unit has its result (written now, or found written by an earlier delivery), adds the unit's
 * job id to the run's set in Redis and reads the set's size in the same round trip; the worker
 * that sees it reach the run's number of units sets the run `finished` in the store. Adding is
 * idempotent, so a redelivered unit (its first worker killed after writing the result but before
 * adding) is counted once and is never missed. The attached submitter also sets it when it sees
 * every result; whichever comes first, the status is the same.
 */
export async function accountUnit(redis: Redis, location: QueueLocation, store: Store, runId: string, jobId: string, units: number): Promise<boolean> {
  const key = doneKey(location, runId);
  const replies = await redis.multi().sadd(key, jobId).scard(key).exec();
  const count = Number(replies?.[1]?.[1] ?? 0);
  if (count < units) return false;
  await store.setRunStatus(runId, 'finished');
  // The set is only for counting: a day later nobody needs it.
  await redis.expire(key, 24 * 3600);
  return true;
}

const doneKey = (location: QueueLocation, runId: string): string => `${QUEUE_PREFIX}:${location.name}:run:${runId}:done`;
