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
 * Checkpoints the store's WAL from a worker thread. SQLite otherwise checkpoints inside the commit
 * that crosses 1,000 WAL pages: at 10,000 samples that is ~20 commits that each block the event
 * loop 2–15 ms on fsync, stalling every answer that arrives meanwhile (docs/benchmarks.md). A
 * second connection in a worker does that work on another core. Durability is unchanged: a
 * commit is in the WAL before its save resolves, whoever copies it into the database file later.
 * Costs ~7 MB of memory (a second V8 isolate), so it starts only once the store begins writing a
 * run, not for every command that opens the store.
 */
export class Checkpointer {
  private worker: Worker | undefined;
  private exited: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Database.Database,
    private readonly file: string,
  ) {}

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
