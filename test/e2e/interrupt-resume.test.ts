import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { resumeRun, startRun, summarizeStoredRun } from '../../src/runner/run.js';
import type { RunSpec } from '../../src/runner/run-spec.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';

/** Without the benchmark data these tests are skipped, saying how to get it. */
const skip = needsData('metatool');

const spec: RunSpec = {
  task: 'metatool/reliability',
  models: ['baseline:lexical', 'baseline:random'],
  seed: 9,
  options: { perTool: 1, limit: 60 },
  dataDir: testDataDir(),
  engine: { concurrency: 2, timeoutMs: 1000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: true },
};

test('a run stopped by its signal is "interrupted"; resume finishes it (hints rebuilt for the baselines) with the same metrics', { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'assay-interrupt-'));
  try {
    const store = await openSqliteStore(join(dir, 'a.db'));
    const controller = new AbortController();
    const stopped = await startRun(spec, { store, signal: controller.signal, onProgress: (e) => e.finished >= 25 && controller.abort() });
    assert.equal(stopped.status, 'interrupted');
    const doneBefore = Object.values(stopped.models).reduce((n, m) => n + m.counts.done, 0);
    assert.ok(doneBefore >= 25 && doneBefore < 120, `done before: ${doneBefore}`);
    assert.ok(Object.values(stopped.models).every((m) => m.counts.errors === 0), 'stopping is not an error');

    const resumed = await resumeRun(stopped.run, {}, { store });
    assert.equal(resumed.status, 'finished');
    for (const m of Object.values(resumed.models)) assert.deepEqual([m.counts.done, m.counts.pending, m.counts.errors], [60, 0, 0]);

    const otherStore = await openSqliteStore(join(dir, 'b.db'));
    const fresh = await startRun(spec, { store: otherStore });
    for (const model of spec.models) assert.deepEqual(resumed.models[model]?.metrics, fresh.models[model]?.metrics, model);
    await Promise.all([store.close(), otherStore.close()]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a run stopped before it stored all its samples: the summary counts the rest as pending, resume stores them in order and finishes with the same metrics', { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'assay-interrupt-'));
  // More samples than the first chunk stored with the run (256), stopped long before the second.
  const big: RunSpec = { ...spec, task: 'metatool/similar', options: { perTool: 3, limit: 500 } };
  try {
    const store = await openSqliteStore(join(dir, 'a.db'));
    const controller = new AbortController();
    const stopped = await startRun(big, { store, signal: controller.signal, onProgress: (e) => e.finished >= 20 && controller.abort() });
    assert.equal(stopped.status, 'interrupted');
    const stored = await store.loadSamples(stopped.run);
    assert.ok(stored.length < 500, `stored before the stop: ${stored.length}`);
    assert.equal((await store.getRun(stopped.run))?.sampleCount, 500);
    for (const m of Object.values(stopped.models)) assert.equal(m.counts.done + m.counts.pending + m.counts.errors, 500);
    assert.deepEqual(Object.values((await summarizeStoredRun(store, stopped.run)).models).map((m) => m.counts), Object.values(stopped.models).map((m) => m.counts));

    const resumed = await resumeRun(stopped.run, {}, { store });
    assert.equal(resumed.status, 'finished');
    for (const m of Object.values(resumed.models)) assert.deepEqual([m.counts.done, m.counts.pending, m.counts.errors], [500, 0, 0]);

    const otherStore = await openSqliteStore(join(dir, 'b.db'));
    const fresh = await startRun(big, { store: otherStore });
    for (const model of big.models) assert.deepEqual(resumed.models[model]?.metrics, fresh.models[model]?.metrics, model);
    // The resumed run holds the same samples, in the same order, as the uninterrupted one.
    const resumedSamples = await store.loadSamples(stopped.run);
    const freshSamples = await otherStore.loadSamples(fresh.run);
    assert.deepEqual(resumedSamples.map((s) => [s.index, s.id, s.input]), freshSamples.map((s) => [s.index, s.id, s.input]));
    await Promise.all([store.close(), otherStore.close()]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
