import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { user, type Sample } from '../../core/index.js';
import type { RunRecord } from '../records.js';
import { openSqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'assay-checkpointer-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const run: RunRecord = {
  id: 'r1', task: 't', taskVersion: '1', status: 'running', createdAt: 'now', updatedAt: 'now', models: ['m'], settings: {}, seed: 1,
  options: {}, engine: {}, provenance: { datasetChecksums: {}, promptVersion: 'p', toolkitVersion: 'v' }, events: [], judge: null,
};
// ~4 MB of samples: well under the writer's own fallback of 4,000 WAL pages (~32 MB), so only a background checkpoint copies them into the file.
const samples: Sample[] = Array.from({ length: 1000 }, (_, i) => ({ id: `s${i}`, input: [user(`${i} `.padEnd(4000, 'x'))], target: null, metadata: {} }));

/** Writes the samples and gives the database file's size (the WAL not counted) once it passes `bytes`, or after `waitMs`. */
async function fileSizeAfterWriting(name: string, backgroundCheckpoints: boolean, bytes: number, waitMs: number): Promise<{ bytes: number; close: () => Promise<void> }> {
  const file = join(dir, name);
  const store = await openSqliteStore(file, { backgroundCheckpoints });
  await store.createRun(run, samples);
  const deadline = Date.now() + waitMs;
  while (statSync(file).size <= bytes && Date.now() < deadline) await sleep(25);
  return { bytes: statSync(file).size, close: () => store.close() };
}

test('a writing store checkpoints in the background: its writes reach the database file without waiting for the WAL to fill', async () => {
  const without = await fileSizeAfterWriting('without.db', false, 4_000_000, 400);
  const withIt = await fileSizeAfterWriting('with.db', true, 4_000_000, 10_000);
  try {
    assert.ok(without.bytes < 1_000_000, `no background checkpoint: the file stays small (${without.bytes} bytes), the data is in the WAL`);
    assert.ok(withIt.bytes > 4_000_000, `background checkpoint: the file holds the samples (${withIt.bytes} bytes)`);
  } finally {
    await Promise.all([without.close(), withIt.close()]);
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
