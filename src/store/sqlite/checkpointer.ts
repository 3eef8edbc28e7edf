import { once } from 'node:events';
import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/**
 * How often the background connection checkpoints. Each checkpoint copies the pages committed since
 * the one before and syncs both files; the pages every commit touches (table tails) are copied
 * again by each. Every 50 ms a 10,000-sample MetaTool run made ~200 of them; every 250 ms, ~40,
 * with the WAL still a few MB at most (docs/benchmarks.md, "group commit").
 */
const INTERVAL_MS = 250;
/**
 * The writer's own automatic checkpoint, kept as a fallback (in WAL pages): should the background
 * thread fall behind or fail, the WAL still cannot grow past ~32 MB.
 */
const FALLBACK_AUTOCHECKPOINT_PAGES = 4000;
/**
 * A run of at most this many units (samples × models × repeats) starts the thread only once its
 * writes have grown the WAL past `START_WAL_BYTES`; a larger one at its first write, as every run
 * did. For a small run the thread costs more than it spares: starting it takes ~0.15 s of CPU and
 * ~10 MB of memory, ~17% of a 50-sample run's CPU. A larger run starts it anyway, and started late
 * (harm's 300 conversations cross 8 MB) it measured ~3% more wall (docs/benchmarks.md, "the
 * checkpointer started by the WAL's size", in the section of 2026-11-28 21:20).
 */
export const SMALL_RUN_UNITS = 100;
/**
 * The WAL's size (bytes) from which a small run's writes start the thread: SQLite's own default
 * checkpoint threshold (1,000 pages) at the store's 8 KB pages. Below it nothing needs copying
 * before the store closes (closing copies what is left).
 */
export const START_WAL_BYTES = 8 * 1024 * 1024;

/**
 * Checkpoints the store's WAL from a worker thread. SQLite otherwise checkpoints inside the commit
 * that crosses 1,000 WAL pages: at 10,000 samples that is ~20 commits that each block the event
 * loop 2–15 ms on fsync, stalling every answer that arrives meanwhile (docs/benchmarks.md). A
 * second connection in a worker does that work on another core. Durability is unchanged: a
 * commit is in the WAL before its save resolves, whoever copies it into the database file later.
 * Costs ~0.15 s of CPU to start and ~10 MB of memory (a second V8 isolate), so it starts when a
 * run of more than `SMALL_RUN_UNITS` units begins writing (`start`), or a small run's writes have
 * grown the WAL past `startWalBytes` (`wrote`), or an import begins; not for every command that
 * opens the store.
 */
export class Checkpointer {
  private worker: Worker | undefined;
  private exited: Promise<unknown> = Promise.resolve();
  /** The writer's fallback is set (at the first write of a run): until the thread starts, the only checkpoint in a commit is the fallback's. */
  private fallbackSet = false;
  private stopped = false;

  constructor(
    private readonly db: Database.Database,
    private readonly file: string,
    /** The WAL size from which `wrote` starts the thread (default {@link START_WAL_BYTES}). */
    private readonly startWalBytes: number = START_WAL_BYTES,
  ) {}

  /** Whether the thread is running. */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /**
   * Told after each write transaction of a run: sets the writer's fallback at the first, and starts
   * the thread once the WAL file has grown past `startWalBytes` (one `stat` per write until then).
   */
  wrote(): void {
    if (this.worker || this.stopped) return;
    this.setFallback();
    if (walBytes(this.file) >= this.startWalBytes) this.start();
  }

  /** Starts the background thread if it is not running yet. */
  start(): void {
    if (this.worker || this.stopped) return;
    this.setFallback();
    const worker = new Worker(new URL('./checkpointer-thread.js', import.meta.url), { workerData: { file: this.file, intervalMs: INTERVAL_MS } });
    // A failure there (say the file cannot be opened a second time) only loses the speed-up: the fallback checkpoints.
    worker.on('error', () => undefined);
    // Never the reason the process stays alive.
    worker.unref();
    this.exited = once(worker, 'exit').catch(() => undefined);
    this.worker = worker;
  }

  private setFallback(): void {
    if (this.fallbackSet) return;
    this.db.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
    this.fallbackSet = true;
  }

  /** Stops the thread after it has closed its connection (terminated if it does not within a second); none starts after. */
  async stop(): Promise<void> {
    this.stopped = true;
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    worker.postMessage('stop');
    const timer = setTimeout(() => void worker.terminate(), 1000);
    await this.exited;
    clearTimeout(timer);
  }
}

/** The size of the WAL file beside `file` (0 when there is none). */
function walBytes(file: string): number {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}
