import { once } from 'node:events';
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
 * A write transaction that took at least this long (ms) starts the thread (`Checkpointer.wrote`).
 * A group commit takes ~1 ms; the one that crosses SQLite's 1,000 WAL pages and checkpoints inside
 * it took 22–27 ms on this project's machines (fsync included), 7 times in a 10,000-sample run. A
 * disk that makes it take twice that is one whose checkpoints would stall the event loop.
 */
export const SLOW_WRITE_MS = 50;

/**
 * Checkpoints the store's WAL from a worker thread, once the writer's own checkpoints prove slow.
 * SQLite checkpoints inside the commit that crosses 1,000 WAL pages, blocking the event loop while
 * it copies the pages and syncs both files. Where that is fast, the thread costs more than it
 * saves: at 10,000 MetaTool samples, 0.2–0.3 s of CPU (a second V8 isolate's start-up, ~0.1 s, and
 * its own heap) and 8–9 MB of peak RSS, against 7 stalls of ~25 ms (docs/benchmarks.md,
 * "the checkpointer thread started only for a slow disk"). Where it is slow (a network file
 * system, a loaded disk), the first write transaction slower than `slowWriteMs` starts the
 * thread, whose second connection does the work on another core from then on. Durability is the
 * same either way: a commit is in the WAL before its save resolves, whoever copies it into the
 * database file later.
 */
export class Checkpointer {
  private worker: Worker | undefined;
  private exited: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Database.Database,
    private readonly file: string,
    private readonly slowWriteMs = SLOW_WRITE_MS,
  ) {}

  /** Whether the thread was started (and not stopped). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /** A write transaction took `ms`: at `slowWriteMs` or more, the writer's own checkpoints are too slow for the event loop, so the thread starts. */
  wrote(ms: number): void {
    if (ms >= this.slowWriteMs) this.start();
  }

  /** Starts the background thread if it is not running yet. */
  start(): void {
    if (this.worker) return;
    this.db.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
    const worker = new Worker(new URL('./checkpointer-thread.js', import.meta.url), { workerData: { file: this.file, intervalMs: INTERVAL_MS } });
    // A failure there (say the file cannot be opened a second time) only loses the speed-up: the fallback checkpoints.
    worker.on('error', () => undefined);
    // Never the reason the process stays alive.
    worker.unref();
    this.exited = once(worker, 'exit').catch(() => undefined);
    this.worker = worker;
  }

  /** Stops the thread after it has closed its connection (terminated if it does not within a second). */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    worker.postMessage('stop');
    const timer = setTimeout(() => void worker.terminate(), 1000);
    await this.exited;
    clearTimeout(timer);
  }
}
