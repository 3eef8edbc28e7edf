// Where a queue is (`--queue`, `--queue-name`), checked without connecting: kept apart from
// queue-connection.ts so the CLI checks its options without loading ioredis and BullMQ at start-up.
import { InputError } from '../core/errors.js';
import { redactStoreUrl } from '../store/store-url.js';

/** The Redis keys of assay's queues start with this (BullMQ's `prefix`), apart from other BullMQ users of the server. */
export const QUEUE_PREFIX = 'assay';
/** The queue a run's units go to unless `--queue-name` says another (several fleets on one Redis). */
export const DEFAULT_QUEUE_NAME = 'units';

/** Where the queue is: `--queue redis://[user:password@]host:port[/db]` (or `rediss://` for TLS) and the queue's name. */
export interface QueueLocation {
  readonly url: string;
  readonly name: string;
}

/** Checks `--queue` and `--queue-name`; a bad one is one line (password hidden). */
export function queueLocation(url: string, name = DEFAULT_QUEUE_NAME): QueueLocation {
  if (!/^rediss?:\/\//i.test(url)) throw new InputError(`--queue ${redactStoreUrl(url)}: give a Redis URL, redis://host:6379 (or rediss:// for TLS)`);
  try {
    new URL(url);
  } catch {
    throw new InputError(`--queue ${redactStoreUrl(url)}: not a valid URL; give redis://host:6379`);
  }
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) throw new InputError(`--queue-name "${name}": use letters, digits, ".", "_" and "-" only`);
  return { url, name };
}
