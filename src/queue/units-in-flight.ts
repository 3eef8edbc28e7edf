import { setTimeout as sleep } from 'node:timers/promises';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { isUnit } from './unit.js';

/** How often a resume looks again at the run's units in flight while it waits for them. */
export const IN_FLIGHT_POLL_MS = 250;

/**
 * How many of the run's units a live worker is working on now: the queue's active jobs of the
 * run whose lock is still held. A worker renews its jobs' locks while it works on them; a dead
 * worker's lock expires, and its jobs are stalled (put back on the queue by a live worker), not
 * in flight. Reads every active job of the queue: at most the fleet's concurrency.
 */
export async function unitsInFlight(queue: Queue, redis: Redis, runId: string): Promise<number> {
  const active = (await queue.getActive()).filter((job) => isUnit(job.data) && job.data.runId === runId && job.id !== undefined);
  if (active.length === 0) return 0;
  // BullMQ's lock key of a job: its key with `:lock` (the one its worker extends).
  const held = await Promise.all(active.map((job) => redis.exists(`${queue.toKey(job.id as string)}:lock`)));
  return held.filter((exists) => exists === 1).length;
}

/** Resolves once none of the run's units is in flight (`unitsInFlight`); `onWait` is told once, with how many were, if it has to wait. */
export async function untilNoUnitInFlight(queue: Queue, redis: Redis, runId: string, onWait?: (units: number) => void): Promise<void> {
  for (let told = false; ; told = true) {
    const units = await unitsInFlight(queue, redis, runId);
    if (units === 0) return;
    if (!told) onWait?.(units);
    await sleep(IN_FLIGHT_POLL_MS);
  }
}
