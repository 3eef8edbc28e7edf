import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InputError } from '../core/errors.js';
import { allTasks } from '../benchmarks/registry.js';
import { getManifest } from '../datasets/fetch/manifests.js';
import { isPinned, modifiedDataFiles } from '../datasets/pinned.js';
import { createEmbedder } from '../models/embedders.js';
import { needsData, testDataDir } from '../testing/test-data.js';
import { checkPinnedData } from './data-check.js';
import { recordedModifiedData } from '../analysis/recorded-run.js';

const READ = { 'metatool/plugin_des.json': 'ab'.repeat(32), 'metatool/plugin_info.json': '864bf25bd5494feca861acb98f69d260f212d9c098a2dc68b4b2ee357d6fb2f5', '/abs/my-tools.json': 'cd'.repeat(32) };

test('a modified pinned file is refused with its name, both short sums and the two ways out', () => {
  assert.throws(
    () => checkPinnedData(READ, '/data', false),
    (e: unknown) =>
      e instanceof InputError &&
      e.message.startsWith('a data file differs from the sha256 assay pins for it in /data: metatool/plugin_des.json (pinned c446ade5acfb…, read abababababab…); ') &&
      e.message.includes('assay data fetch metatool --data-dir /data') &&
      e.message.includes('--allow-modified-data') &&
      e.details?.file === '/data/metatool/plugin_des.json',
  );
});

test('allowed, the modified files are returned to record; a recorded one is not refused again', () => {
  const modified = checkPinnedData(READ, '/data', true);
  assert.deepEqual(modified.map((m) => m.file), ['metatool/plugin_des.json']);
  assert.deepEqual(checkPinnedData(READ, '/data', false, modified), modified);
  // Recorded with other bytes than those read now: refused.
  assert.throws(() => checkPinnedData(READ, '/data', false, [{ ...modified[0]!, actual: 'ef'.repeat(32) }]), InputError);
});

test('the recorded list is read back from the run\'s provenance', () => {
  const entry = { file: 'metatool/plugin_des.json', pinned: 'a', actual: 'b' };
  // A damaged record is read defensively by the store's codec (store/run-record-codec.test.ts).
  assert.deepEqual(recordedModifiedData({ provenance: { modifiedData: [entry] } }), [entry]);
  assert.deepEqual(recordedModifiedData({ provenance: {} }), []);
});

/** Whether assay downloads (and so pins) the data set a task reads: its name's first part has a manifest. */
function readsPinnedData(taskName: string): boolean {
  try {
    getManifest(taskName.split('/')[0] ?? taskName);
    return true;
  } catch {
    return false; // a task on the user's own files (nothing to pin)
  }
}

// Every file a built-in task reads must be one the check knows, or a changed byte in it would pass.
for (const task of allTasks.filter((t) => readsPinnedData(t.name))) {
  test(`every data file ${task.name} reads is pinned, and the shared copy matches`, { skip: needsData(task.name.startsWith('functionchat/') ? 'functionchat' : 'metatool') }, async () => {
    const prepared = await task.prepare({ dataDir: testDataDir(), seed: 0, options: { perTool: 1, limit: 2 }, createEmbedder });
    const files = Object.keys(prepared.datasetChecksums);
    assert.ok(files.length > 0);
    assert.deepEqual(files.filter((f) => !isPinned(f)), []);
    assert.deepEqual(modifiedDataFiles(prepared.datasetChecksums), []);
  });
}
