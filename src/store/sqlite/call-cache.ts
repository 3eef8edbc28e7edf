import type Database from 'better-sqlite3';
import { SQL } from './statements.js';

/** Cached calls saved since the last merge, after which they are merged into `call_cache` in one sorted pass. */
const MERGE_EVERY = 2000;

/**
 * The call cache's key index, kept off the per-outcome write path.
 *
 * A successful call is found again by the sha256 of its request. Indexing that random key on every
 * insert dirtied one random 8 KB index page per saved outcome (about 20 µs of the ~55 µs an
 * outcome cost, measured: docs/benchmarks.md). Instead, `call_cache` (key → newest call id) is
 * filled in sorted batches: every `MERGE_EVERY` cached calls, when the store closes, and when a
 * store opens (catching up after a process that was killed before its merge). `call_cache_watermark`
 * holds the last call id merged, so a merge reads only newer calls. Until its merge, this
 * connection finds its own new calls in memory; another process sees them after the merge.
 */
export class CallCacheIndex {
  /** Cache key → id of the newest successful call saved by this connection and not merged yet. */
  private readonly recent = new Map<string, number>();
  private readonly selectMerged: Database.Statement<[string], string>;
  private readonly selectOutputById: Database.Statement<[number], string>;
  private readonly mergeTx: Database.Transaction<() => void>;

  constructor(db: Database.Database) {
    this.selectMerged = db.prepare<[string], string>(SQL.selectCachedMerged).pluck();
    this.selectOutputById = db.prepare<[number], string>(SQL.selectCallOutput).pluck();
    const watermark = db.prepare<[], number>(SQL.selectCacheWatermark).pluck();
    const lastCall = db.prepare<[], number>(SQL.selectLastCallId).pluck();
    const merge = db.prepare(SQL.mergeCallCache);
    const advance = db.prepare(SQL.updateCacheWatermark);
    this.mergeTx = db.transaction(() => {
      const from = watermark.get() ?? 0;
      const to = lastCall.get() ?? 0;
      if (to <= from) return;
      merge.run({ from, to });
      advance.run(to);
    });
  }

  /** The output text of the newest successful call with this key, if any. */
  lookup(cacheKey: string): string | undefined {
    const id = this.recent.get(cacheKey);
    return id !== undefined ? this.selectOutputById.get(id) : this.selectMerged.get(cacheKey);
  }

  /** Records calls whose transaction has committed. */
  committed(calls: readonly (readonly [cacheKey: string, callId: number])[]): void {
    for (const [key, id] of calls) this.recent.set(key, id);
  }

  /** Merges once enough calls have gathered. */
  mergeIfDue(): void {
    if (this.recent.size >= MERGE_EVERY) this.merge();
  }

  /** Merges every call saved (by any connection) since the last merge. */
  merge(): void {
    this.mergeTx.immediate();
    this.recent.clear();
  }
}
