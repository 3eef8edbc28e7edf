import { Redis, type RedisOptions } from 'ioredis';
import { InputError } from '../core/errors.js';
import { redactStoreUrl } from '../store/store-url.js';
import type { QueueLocation } from './queue-location.js';

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
