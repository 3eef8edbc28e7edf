import assert from 'node:assert/strict';
import { test } from 'node:test';
// Only the public entry point: this is how a library user drives assay.
import { createScriptedProvider, findTask, openSqliteStore, startRun, type RunSpec } from '../../src/index.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';

/** Without the benchmark data these tests are skipped, saying how to get it. */
const skip = needsData('metatool');

test('library: a scripted model that always names the gold tool scores CSR 1 on metatool/similar', { skip }, async () => {
  const spec: RunSpec = {
    task: 'metatool/similar',
    models: ['scripted:oracle'],
    seed: 4,
    options: { perTool: 1, limit: 12 },
    dataDir: testDataDir(),
    engine: { concurrency: 4, timeoutMs: 1000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: false },
  };
  const prepared = await findTask(spec.task).prepare({ dataDir: spec.dataDir, seed: spec.seed, options: spec.options });
  const goldOf = new Map([...prepared.samples].map((s) => [s.metadata['query'], s.target]));
  const oracle = createScriptedProvider({
    id: 'scripted:oracle',
    respond: (request) => (request.hints?.kind === 'select' ? `I choose ${String(goldOf.get(request.hints.query))}.` : 'None'),
  });
  const store = await openSqliteStore(':memory:');
  try {
    const summary = await startRun(spec, { store, providers: { 'scripted:oracle': oracle } });
    assert.equal(summary.status, 'finished');
    assert.equal(summary.models['scripted:oracle']?.counts.done, 12);
    assert.equal(summary.models['scripted:oracle']?.metrics['csr'], 1);
    assert.equal(oracle.calls.length, 12);
  } finally {
    await store.close();
  }
});
