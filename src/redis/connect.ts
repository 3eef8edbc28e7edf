// The one way assay reaches Redis: the URL check, the redactor and every connection, for the
// shared limits (`--shared-limits`) and the queue (`--queue`, BullMQ's connections) alike.
// ioredis is loaded when a connection is made, not by every CLI start that imports this module
// for its URL checks (queue/queue-location.ts, cli/shared-limits.ts).
import type { Redis, RedisOptions } from 'ioredis';
import { describeError, InputError, redactUrlCredentials } from '../core/index.js';

/** How long the first connection may take before the option is refused as unreachable. */
const CONNECT_TIMEOUT_MS = 5_000;
/** Between reconnection attempts once running: Redis briefly gone is waited for, not given up on. */
const RECONNECT_MAX_MS = 2_000;

/** A Redis URL with its password hidden, for messages (the URL itself may carry a secret). */
export function redactRedisUrl(url: string): string {
  return redactUrlCredentials(url);
}

/** Refuses anything but `redis://` or `rediss://` URLs whose path, if any, is a database number, naming the option. */
export function checkRedisUrl(url: string, option: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InputError(`${option} ${redactRedisUrl(url)}: not a URL; expected redis://host:port[/db] (or rediss:// for TLS)`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new InputError(`${option} ${redactRedisUrl(url)}: expected a redis:// or rediss:// URL, got ${parsed.protocol}`);
  }
  if (parsed.pathname !== '' && parsed.pathname !== '/' && !/^\/\d+$/.test(parsed.pathname)) {
    throw new InputError(`${option} ${redactRedisUrl(url)}: the path must be a database number (redis://host:6379/0), got ${parsed.pathname}`);
  }
}

/** Refuses a key prefix with characters that would make keys hard to read or scan for (spaces, glob characters). */
export function checkKeyPrefix(prefix: string, option: string): void {
  if (!/^[A-Za-z0-9:_.\-]{1,100}$/.test(prefix)) throw new InputError(`${option} ${JSON.stringify(prefix)}: use 1–100 letters, digits, ':', '_', '.' or '-'`);
}

export interface ConnectOptions {
  /** The option the URL came from, for the one-line refusal (`--shared-limits`, `--queue`). */
  readonly option: string;
  /** Told once when an established connection is lost (commands then wait) and once when it is back. */
  readonly onWarning?: (message: string) => void;
}

/**
 * Connects to Redis for state a fleet of assay processes shares. The first connection must
 * succeed (or the option is refused, one line, before anything is recorded); after that a lost
 * connection is retried every ≤ 2 s and commands wait for it (`maxRetriesPerRequest: null`):
 * a limit is never dropped silently, the caller is told, and callers may abort their waits.
 */
export async function connectRedis(url: string, options: ConnectOptions): Promise<Redis> {
  checkRedisUrl(url, options.option);
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: null,
    connectTimeout: CONNECT_TIMEOUT_MS,
    retryStrategy: (times) => Math.min(times * 200, RECONNECT_MAX_MS),
  });
  let lastError: unknown;
  let connected = false;
  let down = false;
  redis.on('error', (error: unknown) => {
    lastError = error;
    if (connected && !down) {
      down = true;
      options.onWarning?.(`${options.option}: lost Redis at ${redactRedisUrl(url)} (${describeError(error)}); calls wait for it to come back`);
    }
  });
  redis.on('ready', () => {
    if (down) options.onWarning?.(`${options.option}: Redis at ${redactRedisUrl(url)} is back`);
    down = false;
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new InputError(`${options.option} ${redactRedisUrl(url)}: cannot reach Redis (${describeError(lastError ?? error).split('\n')[0]})`);
  }
  connected = true;
  return redis;
}

/**
 * Fails with one line when Redis cannot be reached or refuses us, before anything is recorded: a
 * run must not be stored for a queue its units cannot reach.
 */
export async function checkRedis(url: string, option: string): Promise<void> {
  (await connectRedis(url, { option })).disconnect();
}

/**
 * A Redis connection for BullMQ, made without waiting for it. `maxRetriesPerRequest: null`
 * (BullMQ requires it of a worker's blocking connection): while Redis is away commands wait and
 * ioredis reconnects with backoff, instead of failing each command after a few tries — a worker
 * resumes when Redis comes back. Check it is reachable first ({@link checkRedis}).
 */
export async function openRedis(url: string, options: RedisOptions = {}): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { maxRetriesPerRequest: null, retryStrategy: (times) => Math.min(200 * 2 ** Math.min(times, 6), 10_000), ...options });
  // Connection errors are retried by ioredis; without a listener each would be an unhandled 'error' event.
  redis.on('error', () => undefined);
  return redis;
}
