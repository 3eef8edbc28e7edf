/**
 * How long a gathered save may wait for others after the previous commit (`SaveOptions.gather`).
 * At 1,000 MetaTool outcomes a second a commit every turn of the event loop wrote ~3.5 outcomes
 * per transaction and ~240 MB of WAL for a 27 MB database (each commit rewrites the pages it
 * touches: table tails and the results' primary-key pages, which sample ids fill in random
 * order). Every 20 ms it is ~20 outcomes per commit and ~140 MB; in a replay of the store's work
 * alone, with checkpoints every 250 ms, half the CPU (docs/benchmarks.md, "group commit").
 */
export const GATHER_MS = 20;

/** A save waiting for its commit, and the promise to settle once it is written. */
export interface Waiting<T> {
  readonly item: T;
  /** True when the item was written; false when the store declined it (nothing written). */
  readonly resolve: (saved: boolean) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Group commit: saves made while a commit is due are written together, by `commit`, in one
 * transaction. A save the caller waits for is written at the next turn of the event loop, with
 * every save before it; a gathered one (its caller goes on) waits until `gatherMs` after the
 * previous commit, so under a steady stream commits come at most every `gatherMs`, while the first
 * save after a quiet spell is written at the next turn as any other.
 */
export class GroupCommit<T> {
  private waiting: Waiting<T>[] = [];
  private immediate = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastCommitAt = Number.NEGATIVE_INFINITY;

  constructor(
    /** Writes a batch and settles each of its saves (never throws: a failure rejects the saves it concerns). */
    private readonly commit: (batch: readonly Waiting<T>[]) => void,
    private readonly gatherMs = GATHER_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Adds a save; resolves once it is written (see `commit`). */
  add(item: T, gather: boolean): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.schedule(gather);
    });
  }

  /** Writes every waiting save now (before a read or a write that must follow them). */
  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting;
    if (batch.length === 0) return;
    this.waiting = [];
    try {
      this.commit(batch);
    } finally {
      this.lastCommitAt = this.now();
    }
  }

  private schedule(gather: boolean): void {
    if (this.immediate) return;
    const wait = gather ? this.lastCommitAt + this.gatherMs - this.now() : 0;
    if (wait <= 0) {
      this.immediate = true;
      setImmediate(() => {
        this.immediate = false;
        this.flush();
      });
    } else {
      // Not unref'd: a save still waiting keeps the process alive until it is written.
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.flush();
      }, wait);
    }
  }
}
