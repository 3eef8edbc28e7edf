import { Redis, type RedisOptions } from 'ioredis';
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

/**
 * A Redis connection for BullMQ. `maxRetriesPerRequest: null` (BullMQ requires it of a worker's
 * blocking connection): while Redis is away commands wait and ioredis reconnects with backoff,
 * instead of failing each command after a few tries — a worker resumes when Redis comes back.
 */
export function connectRedis(location: QueueLocation, options: RedisOptions = {}): Redis {
  const redis = new Redis(location.url, { maxRetriesPerRequest: null, retryStrategy: (times) => Math.min(200 * 2 ** Math.min(times, 6), 10_000), ...options });
  // Connection errors are retried by ioredis; without a listener each would be an unhandled 'error' event.
  redis.on('error', () => undefined);
  return redis;
}

/**
 * Fails with one line when Redis cannot be reached or refuses us, before anything is recorded: a
 * run must not be stored for a queue its units cannot reach. One try, a few seconds at most.
 */
export async function checkRedis(location: QueueLocation): Promise<void> {
  const redis = new Redis(location.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 5_000, enableOfflineQueue: false });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new InputError(`--queue ${redactStoreUrl(location.url)}: cannot reach Redis (${(error as Error).message.split('\n')[0]})`);
  } finally {
    redis.disconnect();
  }
}
