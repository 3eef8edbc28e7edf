import { InputError } from '../core/errors.js';

/**
 * Attempts per unit. The model middleware already retries 429s, 5xx, timeouts and network errors
 * within one attempt (`--max-retries`); a job attempt more is for what remains (a store that was
 * away, a worker's own failure). Only the last attempt's error becomes the unit's result.
 */
export const JOB_ATTEMPTS = 3;
/** Backoff between a job's attempts: exponential from this, in ms. */
export const JOB_BACKOFF_MS = 2_000;

/**
 * How long a worker's lock on a job lasts without renewal. BullMQ renews it every half of this
 * while the job runs, however long its model calls take, as long as the worker's event loop
 * lives; a worker killed with -9 stops renewing, and after this its jobs are stalled and go to
 * another worker (checked every `stalledInterval`, the same). 30 s by default; tests set
 * `ASSAY_QUEUE_LOCK_MS` short so a killed worker's jobs move quickly.
 */
export function lockDurationMs(): number {
  const text = process.env['ASSAY_QUEUE_LOCK_MS'];
  if (text === undefined || text === '') return 30_000;
  const ms = Number(text);
  if (!Number.isSafeInteger(ms) || ms < 1_000) throw new InputError(`ASSAY_QUEUE_LOCK_MS must be a whole number of milliseconds ≥ 1000, got "${text}"`);
  return ms;
}

/**
 * How often a unit may be found stalled (its worker gone) before BullMQ fails it: generous, since
 * a stalled unit has no result and a failed one would leave its run short of one.
 */
export const MAX_STALLED = 20;
