import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { resumeRun, startRun } from '../../src/runner/run.js';
import type { RunSpec } from '../../src/runner/run-spec.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { testDataDir } from '../../src/testing/test-data.js';

const spec: RunSpec = {
  task: 'metatool/reliability',
  models: ['baseline:lexical', 'baseline:random'],
  seed: 9,
  options: { perTool: 1, limit: 60 },
  dataDir: testDataDir(),
  engine: { concurrency: 2, timeoutMs: 1000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: true },
};

test('a run stopped by its signal is "interrupted"; resume finishes it (hints rebuilt for the baselines) with the same metrics', async () => {
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

    const fresh = await startRun(spec, { store: await openSqliteStore(join(dir, 'b.db')) });
    for (const model of spec.models) assert.deepEqual(resumed.models[model]?.metrics, fresh.models[model]?.metrics, model);
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
