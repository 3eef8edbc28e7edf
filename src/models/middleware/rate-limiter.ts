import type { Clock } from './clock.js';
import type { Limiter } from './limiter.js';

/** How long a 429 without Retry-After slows a limit down, and how far (rate / 2^level). */
export const SLOW_DOWN_MS = 60_000;
export const MAX_SLOW_DOWN_LEVEL = 3;

/**
 * A token bucket refilled continuously: `perMinute` units a minute, bursting to at most
 * `perMinute` at once. Used twice per model: requests per minute and tokens per minute.
 * Waiters are served in order, so a large request cannot be overtaken forever. This is the
 * in-process `Limiter`; `RedisLimiter` is the same bucket shared by a fleet.
 */
export class RateLimiter implements Limiter {
  private tokens: number;
  /** Time the bucket level refers to; in the future while a Retry-After holds (no refill until then). */
  private last: number;
  private queue: Promise<void> = Promise.resolve();
  private slowLevel = 0;
  private slowUntil = 0;

  constructor(readonly perMinute: number, private readonly clock: Clock) {
    if (!(perMinute > 0)) throw new RangeError(`rate limit must be positive, got ${perMinute}`);
    this.tokens = perMinute;
    this.last = clock.now();
  }

  /** Waits until `amount` units are available, then takes them. */
  take(amount = 1, signal?: AbortSignal): Promise<void> {
    const want = Math.min(amount, this.perMinute);
    const turn = this.queue.then(() => this.waitFor(want, signal));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** Takes units without waiting (e.g. output tokens learnt after a call); may go into debt. */
  charge(amount: number): void {
    this.refill();
    this.tokens -= amount;
  }

  /** See `Limiter.backOff`: hold until Retry-After, or empty the bucket and halve the rate for a minute. */
  backOff(retryAfterMs: number | undefined): void {
    this.refill();
    const now = this.clock.now();
    this.tokens = Math.min(this.tokens, 0);
    if (retryAfterMs !== undefined) {
      this.last = Math.max(this.last, now + retryAfterMs);
    } else {
      this.slowLevel = Math.min(this.slowLevel + 1, MAX_SLOW_DOWN_LEVEL);
      this.slowUntil = now + SLOW_DOWN_MS;
    }
  }

  /** Units per minute now: the limit, or less while a 429 without Retry-After slows it down. */
  private rate(now: number): number {
    if (this.slowLevel > 0 && now >= this.slowUntil) this.slowLevel = 0;
    return this.perMinute / 2 ** this.slowLevel;
  }

  private refill(): void {
    const now = this.clock.now();
    if (now <= this.last) return; // held by a Retry-After: nothing refills until then
    this.tokens = Math.min(this.perMinute, this.tokens + ((now - this.last) * this.rate(now)) / 60_000);
    this.last = now;
  }

  private async waitFor(amount: number, signal?: AbortSignal): Promise<void> {
    for (;;) {
      this.refill();
      if (this.tokens >= amount) {
        this.tokens -= amount;
        return;
      }
      const now = this.clock.now();
      const held = Math.max(0, this.last - now);
      const deficit = amount - this.tokens;
      await this.clock.sleep(held + Math.ceil((deficit * 60_000) / this.rate(now)), signal);
    }
  }
}
