import type { Redis } from 'ioredis';
import { abortable } from '../../core/index.js';
import type { Clock } from './clock.js';
import type { Limiter, LimiterFactory, LimitSpec } from './limiter.js';
import { MAX_SLOW_DOWN_LEVEL, SLOW_DOWN_MS } from './rate-limiter.js';

/**
 * The token bucket of `RateLimiter`, kept in one Redis hash per limit and changed only by this
 * script, so every process sharing the limit sees one bucket. Time is Redis's own (`TIME`), so the
 * processes' clocks do not matter. A take *reserves*: the level may go below zero, and the reply
 * is how long the caller must sleep until its units exist (no polling, one round trip; callers are
 * served in the order their reservations reached Redis). `at` is the time the level refers to; a
 * Retry-After moves it into the future, so nothing refills and every reservation waits until then.
 *
 * KEYS[1] the bucket; ARGV: perMinute, mode (take | charge | backoff), amount (take, charge; a
 * negative charge refunds), retryAfterMs (backoff; -1 when the server gave none).
 * Returns the wait in whole milliseconds (take), else 0.
 */
const BUCKET_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local cap = tonumber(ARGV[1])
local mode = ARGV[2]
local amount = tonumber(ARGV[3])
local h = redis.call('HMGET', KEYS[1], 'level', 'at', 'slow', 'slowUntil')
local level = tonumber(h[1]) or cap
local at = tonumber(h[2]) or now
local slow = tonumber(h[3]) or 0
local slowUntil = tonumber(h[4]) or 0
if slow > 0 and now >= slowUntil then slow = 0 end
local rate = cap / 60000 / (2 ^ slow)
if now > at then
  level = math.min(cap, level + (now - at) * rate)
  at = now
end
local wait = 0
if mode == 'take' then
  level = level - math.min(amount, cap)
  local ready = at
  if level < 0 then ready = at + (-level) / rate end
  wait = math.max(0, math.ceil(ready - now))
elseif mode == 'charge' then
  level = math.min(cap, level - amount)
elseif mode == 'backoff' then
  if level > 0 then level = 0 end
  local retryAfter = tonumber(ARGV[4])
  if retryAfter >= 0 then
    at = math.max(at, now + retryAfter)
  else
    slow = math.min(slow + 1, tonumber(ARGV[5]))
    slowUntil = now + tonumber(ARGV[6])
  end
end
redis.call('HSET', KEYS[1], 'level', tostring(level), 'at', tostring(at), 'slow', slow, 'slowUntil', tostring(slowUntil))
redis.call('PEXPIRE', KEYS[1], math.ceil(math.max(at, slowUntil) - now) + 600000)
return wait
`;

type BucketRedis = Redis & { assayBucket(key: string, perMinute: number, mode: string, amount: number, retryAfterMs: number, maxSlow: number, slowMs: number): Promise<number> };

/** Where a limit lives: `<prefix>limit:<model id>:<kind>`. */
export function limitKey(prefix: string, spec: Pick<LimitSpec, 'modelId' | 'kind'>): string {
  return `${prefix}limit:${spec.modelId}:${spec.kind}`;
}

/**
 * One limit kept in Redis, shared by every process (on any machine) that uses the same Redis,
 * key prefix, model id and kind. See `BUCKET_SCRIPT` for the bucket and `connectRedis` for what
 * happens while Redis is unreachable: takes wait (abortable), charges and back-offs are queued
 * and sent once it is back; the limit is never dropped.
 */
export class RedisLimiter implements Limiter {
  readonly perMinute: number;
  private readonly key: string;
  /** Charges and back-offs on their way to Redis, so `close` can wait for them. */
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly redis: Redis,
    spec: LimitSpec,
    prefix: string,
    private readonly clock: Clock,
  ) {
    if (!(spec.perMinute > 0)) throw new RangeError(`rate limit must be positive, got ${spec.perMinute}`);
    this.perMinute = spec.perMinute;
    this.key = limitKey(prefix, spec);
    defineBucketScript(redis);
  }

  async take(amount = 1, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    const want = Math.min(amount, this.perMinute);
    const reply = this.bucket('take', want);
    let wait: number;
    try {
      wait = await abortable(reply, signal);
    } catch (error) {
      // Aborted while Redis had not answered: the reservation may still land; give it back.
      if (signal?.aborted) void reply.then(() => this.charge(-want), () => undefined);
      throw error;
    }
    try {
      await this.clock.sleep(wait, signal);
    } catch (error) {
      this.charge(-want);
      throw error;
    }
  }

  charge(amount: number): void {
    this.send(this.bucket('charge', amount));
  }

  backOff(retryAfterMs: number | undefined): void {
    this.send(this.bucket('backoff', 0, retryAfterMs ?? -1));
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  private bucket(mode: 'take' | 'charge' | 'backoff', amount: number, retryAfterMs = -1): Promise<number> {
    return (this.redis as BucketRedis).assayBucket(this.key, this.perMinute, mode, amount, retryAfterMs, MAX_SLOW_DOWN_LEVEL, SLOW_DOWN_MS).then(Number);
  }

  private send(command: Promise<unknown>): void {
    const tracked = command.catch(() => undefined).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }
}

function defineBucketScript(redis: Redis): void {
  if (!('assayBucket' in redis)) redis.defineCommand('assayBucket', { numberOfKeys: 1, lua: BUCKET_SCRIPT });
}


export interface RedisLimitersOptions {
  /** Namespace of every key (default `assay:`): fleets, tests and users that must not share limits use different ones. */
  readonly prefix?: string;
}

export const DEFAULT_LIMIT_PREFIX = 'assay:';

/** The `LimiterFactory` of a fleet: every model's limits in `redis`, under `prefix`. */
export function redisLimiters(redis: Redis, options: RedisLimitersOptions = {}): LimiterFactory {
  const prefix = options.prefix ?? DEFAULT_LIMIT_PREFIX;
  return (spec, clock) => new RedisLimiter(redis, spec, prefix, clock);
}
