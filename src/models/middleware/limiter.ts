import type { Clock } from './clock.js';
import { RateLimiter } from './rate-limiter.js';

/** What a limit counts: requests per minute (`--rpm`) or tokens per minute (`--tpm`). */
export type LimitKind = 'requests' | 'tokens';

/**
 * One per-minute limit of one model, as the middleware uses it. Two implementations: the
 * in-process token bucket (`RateLimiter`, the default) and the Redis one shared by every process
 * that names the same limit (`RedisLimiter`, `--shared-limits`), so ten workers together keep to
 * one provider limit.
 */
export interface Limiter {
  /** Units a minute; also the burst (a full bucket). */
  readonly perMinute: number;
  /** Waits until `amount` units may be spent, then spends them. Rejects with the signal's reason when it aborts. */
  take(amount: number, signal?: AbortSignal): Promise<void>;
  /** Spends units without waiting (output tokens learnt after a call); may go into debt, so later takes wait. */
  charge(amount: number): void;
  /**
   * The provider answered 429. With the server's Retry-After (`retryAfterMs`), every caller
   * sharing this limit holds until then and the bucket restarts empty (no burst right after);
   * without one, the bucket is emptied and its rate halved for a minute (halved again by each
   * further 429, down to an eighth; back to full a minute after the last 429).
   */
  backOff(retryAfterMs: number | undefined): void;
  /** Lets go of what the limiter holds (a Redis connection's share); charges still on their way are sent first. */
  close?(): Promise<void>;
}

/** Which limit a model asks its factory for. Every process naming the same model id and kind shares one limit. */
export interface LimitSpec {
  readonly modelId: string;
  readonly kind: LimitKind;
  readonly perMinute: number;
}

/** Makes the limiters of a model (`Model`'s construction): in-process by default, Redis-backed for a fleet. */
export type LimiterFactory = (spec: LimitSpec, clock: Clock) => Limiter;

/** The default: a token bucket in this process, as assay has always had. */
export const inProcessLimiters: LimiterFactory = (spec, clock) => new RateLimiter(spec.perMinute, clock);
