import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { user, type Sample } from '../../core/index.js';
import type { RunRecord } from '../records.js';
import { Checkpointer, SMALL_RUN_UNITS } from './checkpointer.js';
import { openDatabase } from './open-database.js';
import { openSqliteStore, type SqliteStoreOptions } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'assay-checkpointer-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const run: RunRecord = {
  id: 'r1', task: 't', taskVersion: '1', status: 'running', createdAt: 'now', updatedAt: 'now', models: ['m'], settings: {}, seed: 1,
  options: {}, engine: {}, provenance: { datasetChecksums: {}, promptVersion: 'p', toolkitVersion: 'v' }, events: [], judge: null,
};
/** ~4 MB of samples in `count` samples: well under the writer's own fallback of 4,000 WAL pages (~32 MB), so only a background checkpoint copies them into the file. */
const samplesOf = (count: number, prefix = 's'): Sample[] => Array.from({ length: count }, (_, i) => ({ id: `${prefix}${i}`, input: [user(`${i} `.padEnd(4_000_000 / count, 'x'))], target: null, metadata: {} }));
/** A run of 1,000 units: its checkpoints start with its writes. */
const samples = samplesOf(1000);
/** A small run (100 units, `SMALL_RUN_UNITS`): its checkpoints wait for its WAL to grow. */
const few = samplesOf(SMALL_RUN_UNITS);

/** Waits until the database file (the WAL not counted) passes `bytes`, or `waitMs`; gives its size. */
async function fileSizeOnceOver(file: string, bytes: number, waitMs: number): Promise<number> {
  const deadline = Date.now() + waitMs;
  while (statSync(file).size <= bytes && Date.now() < deadline) await sleep(25);
  return statSync(file).size;
}

/** Writes a run of `written` and gives the database file's size once it passes `bytes`, or after `waitMs`. */
async function fileSizeAfterWriting(name: string, options: SqliteStoreOptions, written: readonly Sample[], bytes: number, waitMs: number): Promise<{ bytes: number; close: () => Promise<void> }> {
  const file = join(dir, name);
  const store = await openSqliteStore(file, options);
  await store.createRun(run, written);
  return { bytes: await fileSizeOnceOver(file, bytes, waitMs), close: () => store.close() };
}

test('a writing store checkpoints in the background: a run of more than 100 units from its first write, a small one once its WAL has grown', async () => {
  const without = await fileSizeAfterWriting('without.db', { backgroundCheckpoints: false }, samples, 4_000_000, 400);
  const large = await fileSizeAfterWriting('large.db', {}, samples, 4_000_000, 10_000);
  const small = await fileSizeAfterWriting('small.db', {}, few, 4_000_000, 400);
  const smallPastBound = await fileSizeAfterWriting('small-past.db', { checkpointFromWalBytes: 0 }, few, 4_000_000, 10_000);
  try {
    assert.ok(without.bytes < 1_000_000, `no background checkpoint: the file stays small (${without.bytes} bytes), the data is in the WAL`);
    assert.ok(large.bytes > 4_000_000, `1,000 units: the thread checkpoints from the first write (${large.bytes} bytes in the file)`);
    assert.ok(small.bytes < 1_000_000, `100 units, ~4 MB of WAL, under the 8 MB from which a small run starts the thread: the file stays small (${small.bytes} bytes)`);
    assert.ok(smallPastBound.bytes > 4_000_000, `100 units past a bound of 0: the thread checkpoints (${smallPastBound.bytes} bytes)`);
  } finally {
    await Promise.all([without.close(), large.close(), small.close(), smallPastBound.close()]);
  }
});

test('a small run starts the thread at the write that grows the WAL past the bound, not before', async () => {
  const file = join(dir, 'grows.db');
  // 50 samples (~2 MB), then 50 more: the bound (3 MB) is crossed by the second write; 100 units in all.
  const store = await openSqliteStore(file, { checkpointFromWalBytes: 3_000_000 });
  const half = samplesOf(SMALL_RUN_UNITS).slice(0, SMALL_RUN_UNITS / 2);
  try {
    await store.createRun({ ...run, sampleCount: SMALL_RUN_UNITS }, half);
    assert.ok((await fileSizeOnceOver(file, 1_000_000, 400)) < 1_000_000, 'under the bound: nothing checkpointed');
    await store.addSamples(run.id, half.map((s) => ({ ...s, id: `more-${s.id}` })));
    const bytes = await fileSizeOnceOver(file, 3_000_000, 10_000);
    assert.ok(bytes > 3_000_000, `past the bound: the thread checkpoints (${bytes} bytes in the file)`);
  } finally {
    await store.close();
  }
  assert.equal((await readBack(file)).length, SMALL_RUN_UNITS);
});

test('a store that did not create the run (a resume) starts the thread at its first outcome, whatever the run\'s size, even after creating a small run of its own', async () => {
  const file = join(dir, 'resumed.db');
  const tiny = Array.from({ length: SMALL_RUN_UNITS }, (_, i): Sample => ({ id: `t${i}`, input: [user(`q${i}`)], target: null, metadata: {} }));
  const first = await openSqliteStore(file);
  await first.createRun({ ...run, id: 'r-resumed' }, tiny);
  await first.close();
  const resumed = await openSqliteStore(file);
  // A small run of its own first (a suite's earlier entry): its checkpoints wait, the resumed run's do not.
  await resumed.createRun({ ...run, id: 'r-own-small' }, tiny.slice(0, 1));
  const before = statSync(file).size;
  try {
    // ~4 MB of outputs: under the 8 MB a small run of this store would wait for.
    for (const sample of tiny) {
      await resumed.saveOutcome([], {
        runId: 'r-resumed', sampleId: sample.id, modelId: 'm', cached: false, attempts: 1, latencyMs: 1, finishedAt: 'now', status: 'done',
        output: { text: 'x'.repeat(40_000), toolCalls: [], finishReason: { unified: 'stop' }, usage: {}, warnings: [] }, score: { value: true }, error: null, usage: {}, costUsd: 0,
      });
    }
    const bytes = await fileSizeOnceOver(file, before + 3_000_000, 10_000);
    assert.ok(bytes > before + 3_000_000, `the thread checkpoints the resumed run's outcomes (${before} → ${bytes} bytes in the file)`);
  } finally {
    await resumed.close();
  }
});

test('Checkpointer.wrote: the writer\'s fallback at the first write, the thread only once the WAL file reaches the bound', async () => {
  const file = join(dir, 'direct.db');
  const db = openDatabase(file);
  // The bound: 64 KB more than the migrations wrote to the WAL.
  const bound = statSync(`${file}-wal`).size + 64 * 1024;
  const checkpointer = new Checkpointer(db, file, bound);
  try {
    assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), 1000);
    db.exec('CREATE TABLE t (x TEXT)');
    checkpointer.wrote();
    assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), 4000, 'the fallback is set at the first write');
    assert.ok(statSync(`${file}-wal`).size < bound);
    assert.equal(checkpointer.running, false, 'a WAL under the bound starts no thread');
    db.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(100_000));
    checkpointer.wrote();
    assert.ok(statSync(`${file}-wal`).size >= bound);
    assert.equal(checkpointer.running, true);
    await checkpointer.stop();
    assert.equal(checkpointer.running, false);
    checkpointer.wrote();
    assert.equal(checkpointer.running, false, 'none starts once stopped');
  } finally {
    db.close();
  }
});

/** The samples of `run` in a store opened again on `file`. */
async function readBack(file: string): Promise<readonly unknown[]> {
  const reopened = await openSqliteStore(file);
  try {
    return await reopened.loadSamples(run.id);
  } finally {
    await reopened.close();
  }
}

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
