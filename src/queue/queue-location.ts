// Where a queue is (`--queue`, `--queue-name`), checked without connecting: the URL by redis/'s
// one check, which loads ioredis only to connect; BullMQ is not loaded by the CLI at start-up.
import { InputError } from '../core/errors.js';
import { checkRedisUrl } from '../redis/connect.js';

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
  checkRedisUrl(url, '--queue');
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) throw new InputError(`--queue-name "${name}": use letters, digits, ".", "_" and "-" only`);
  return { url, name };
}
