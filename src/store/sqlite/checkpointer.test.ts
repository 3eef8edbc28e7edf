import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { user, type Sample } from '../../core/index.js';
import type { RunRecord } from '../records.js';
import { Checkpointer, SLOW_WRITE_MS } from './checkpointer.js';
import { openDatabase } from './open-database.js';
import { openSqliteStore, type SqliteStoreOptions } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'assay-checkpointer-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const run: RunRecord = {
  id: 'r1', task: 't', taskVersion: '1', status: 'running', createdAt: 'now', updatedAt: 'now', models: ['m'], settings: {}, seed: 1,
  options: {}, engine: {}, provenance: { datasetChecksums: {}, promptVersion: 'p', toolkitVersion: 'v' }, events: [], judge: null,
};
// ~4 MB of samples: well under the writer's own fallback of 4,000 WAL pages (~32 MB), so only a background checkpoint copies them into the file.
const samples: Sample[] = Array.from({ length: 1000 }, (_, i) => ({ id: `s${i}`, input: [user(`${i} `.padEnd(4000, 'x'))], target: null, metadata: {} }));

/** Writes the samples and gives the database file's size (the WAL not counted) once it passes `bytes`, or after `waitMs`. */
async function fileSizeAfterWriting(name: string, options: SqliteStoreOptions, bytes: number, waitMs: number): Promise<{ bytes: number; close: () => Promise<void> }> {
  const file = join(dir, name);
  const store = await openSqliteStore(file, options);
  await store.createRun(run, samples);
  const deadline = Date.now() + waitMs;
  while (statSync(file).size <= bytes && Date.now() < deadline) await sleep(25);
  return { bytes: statSync(file).size, close: () => store.close() };
}

test('a store whose write proved slow checkpoints in the background: its writes reach the database file without waiting for the WAL to fill', async () => {
  const without = await fileSizeAfterWriting('without.db', { backgroundCheckpoints: false }, 4_000_000, 400);
  // No write takes an hour: the thread never starts, the writer's own checkpoints (at 1,000 pages) are all there is.
  const fast = await fileSizeAfterWriting('fast.db', { slowWriteMs: 3_600_000 }, 4_000_000, 400);
  // Every write is "slow": the first one starts the thread.
  const slow = await fileSizeAfterWriting('slow.db', { slowWriteMs: 0 }, 4_000_000, 10_000);
  try {
    assert.ok(without.bytes < 1_000_000, `no background checkpoint: the file stays small (${without.bytes} bytes), the data is in the WAL`);
    assert.ok(fast.bytes < 1_000_000, `writes faster than the bound start no thread (${fast.bytes} bytes)`);
    assert.ok(slow.bytes > 4_000_000, `background checkpoint: the file holds the samples (${slow.bytes} bytes)`);
  } finally {
    await Promise.all([without.close(), fast.close(), slow.close()]);
  }
});

test('the thread starts at the first write transaction of SLOW_WRITE_MS or more, not before, and stops at close', async () => {
  const file = join(dir, 'bound.db');
  const db = openDatabase(file);
  const checkpointer = new Checkpointer(db, file);
  try {
    checkpointer.wrote(SLOW_WRITE_MS - 1);
    assert.equal(checkpointer.running, false);
    assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), 1000, "SQLite's own checkpoints meanwhile");
    checkpointer.wrote(SLOW_WRITE_MS);
    assert.equal(checkpointer.running, true);
    assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), 4000, 'the writer keeps its own only as a fallback');
    checkpointer.wrote(SLOW_WRITE_MS * 10);
    await checkpointer.stop();
    assert.equal(checkpointer.running, false);
  } finally {
    db.close();
  }
});

test('closing stops the thread and leaves a complete file with no WAL; the data reads back', async () => {
  const file = join(dir, 'closed.db');
  const store = await openSqliteStore(file);
  await store.createRun(run, samples.slice(0, 10));
  await store.close();
  await store.close(); // twice is fine
  assert.throws(() => statSync(`${file}-wal`), /ENOENT/);
  const reopened = await openSqliteStore(file);
  assert.equal((await reopened.loadSamples('r1')).length, 10);
  await reopened.close();
});
