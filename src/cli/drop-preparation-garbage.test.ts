import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { runInNewContext } from 'node:vm';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BIG_DATA_FILE, readDataFileBytes, takeBigDataFileBytes } from '../datasets/read-data-file.js';
import { collectGarbage, dropPreparationGarbage, holdsLargePreparationGarbage, LARGE_PREPARATION_GARBAGE } from './drop-preparation-garbage.js';

test('collectGarbage collects what nothing holds any more', async () => {
  let data: object | undefined = { rows: Array.from({ length: 1000 }, (_, i) => ({ i })) };
  const weak = new WeakRef(data);
  data = undefined;
  // A WeakRef's target is kept until the job that made or read it ends.
  await nextTurn();
  collectGarbage();
  assert.equal(weak.deref(), undefined);
});

test('collectGarbage leaves no gc function behind: not here, not in contexts made later', () => {
  collectGarbage();
  collectGarbage();
  assert.equal(typeof (globalThis as { gc?: unknown }).gc, 'undefined');
  assert.equal(runInNewContext('typeof gc'), 'undefined');
});

test('a collection is asked for only when the large-object space holds big data (a file read whole), as MetaTool leaves it and summaries or harm do not', () => {
  const spaces = (large: number) => [
    { space_name: 'new_space', space_used_size: 10e6 },
    { space_name: 'old_space', space_used_size: 16e6 },
    { space_name: 'large_object_space', space_used_size: large },
  ];
  assert.equal(holdsLargePreparationGarbage(spaces(8.8e6)), true);
  assert.equal(holdsLargePreparationGarbage(spaces(LARGE_PREPARATION_GARBAGE)), true);
  assert.equal(holdsLargePreparationGarbage(spaces(LARGE_PREPARATION_GARBAGE - 1)), false);
  assert.equal(holdsLargePreparationGarbage(spaces(0.7e6)), false);
  assert.equal(holdsLargePreparationGarbage([{ space_name: 'old_space', space_used_size: 50e6 }]), false);
});

test('a collection is made when a big data file was read whole since the last one (MetaTool\'s CSV, read as bytes), and the count starts again', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'assay-big-file-'));
  try {
    writeFileSync(path.join(dir, 'small.csv'), Buffer.alloc(BIG_DATA_FILE - 1, 'a'));
    writeFileSync(path.join(dir, 'big.csv'), Buffer.alloc(BIG_DATA_FILE, 'a'));
    const dataset = { title: 'test data', folder: 'x' };
    takeBigDataFileBytes();
    await readDataFileBytes(dir, 'small.csv', dataset);
    assert.equal(takeBigDataFileBytes(), 0);
    await readDataFileBytes(dir, 'big.csv', dataset);
    assert.equal(dropPreparationGarbage(), true);
    assert.equal(takeBigDataFileBytes(), 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
