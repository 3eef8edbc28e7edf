import type { Clock } from './clock.js';

/**
 * A token bucket refilled continuously: `perMinute` units a minute, bursting to at most
 * `perMinute` at once. Used twice per model: requests per minute and tokens per minute.
 * Waiters are served in order, so a large request cannot be overtaken forever.
 */
export class RateLimiter {
  private tokens: number;
  private last: number;
  private queue: Promise<void> = Promise.resolve();

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

  private refill(): void {
    const now = this.clock.now();
    this.tokens = Math.min(this.perMinute, this.tokens + ((now - this.last) * this.perMinute) / 60_000);
    this.last = now;
  }

  private async waitFor(amount: number, signal?: AbortSignal): Promise<void> {
    for (;;) {
      this.refill();
      if (this.tokens >= amount) {
        this.tokens -= amount;
        return;
      }
      const deficit = amount - this.tokens;
      await this.clock.sleep(Math.ceil((deficit * 60_000) / this.perMinute), signal);
    }
  }
}
