/**
 * A gate a fake server's `respond` can wait at: closed, answers are held (the requests stay in
 * flight as long as the test needs); opened, they go out. Tests use it to act while calls are
 * known to be in flight, instead of guessing with latencies.
 */
export class Gate {
  private waiting: Promise<void> | undefined;
  private release: (() => void) | undefined;

  /** Resolves at once when open, else when the gate opens. */
  pass(): Promise<void> {
    return this.waiting ?? Promise.resolve();
  }

  close(): void {
    if (this.waiting) return;
    this.waiting = new Promise((resolve) => (this.release = resolve));
  }

  open(): void {
    this.release?.();
    this.waiting = undefined;
    this.release = undefined;
  }
}

/**
 * Polls `condition` until it holds (a test waits for what it needs, never for a fixed time), every
 * `pollMs` (a check that asks a store or Redis, or starts a process, polls less often).
 */
export async function waitUntil(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 120_000, pollMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
