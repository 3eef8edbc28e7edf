/** Limits how many model calls are in flight at once. FIFO, so no caller starves. */
export class Semaphore {
  private available: number;
  private readonly waiters: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`concurrency must be a positive integer, got ${limit}`);
    this.available = limit;
  }

  async acquire(): Promise<() => void> {
    if (this.available > 0) {
      this.available--;
    } else {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    return this.releaser();
  }

  /**
   * A slot at once if one is free (then nobody waits: a slot is only freed when no one does),
   * else undefined: `acquire` without its promise and microtask turn when the limit is not reached.
   */
  tryAcquire(): (() => void) | undefined {
    if (this.available <= 0) return undefined;
    this.available--;
    return this.releaser();
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      if (next) next();
      else this.available++;
    };
  }
}
