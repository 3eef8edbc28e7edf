import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startRun } from '../../src/runner/run.js';
import type { RunSpec } from '../../src/runner/run-spec.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { assay } from '../../src/testing/cli-harness.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';

// The baselines answer MetaTool's questions with the answerers the task declares (Task.baselines),
// which the runner hands them. A run stopped half-way is resumed, and then re-scored, by other
// processes (the CLI) that load no task until the run names it: their answers must be those of
// an uninterrupted run, sample by sample, byte for byte.

const skip = needsData('metatool');

const engine = { concurrency: 2, timeoutMs: 1000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: true };
const models = ['baseline:lexical', 'baseline:random'];

/** Every answer of a run, by model and sample: the text and the raw response the baseline gave. */
async function answersOf(store: SqliteStore, runId: string): Promise<Map<string, string>> {
  const results = await store.results(runId);
  return new Map(results.map((r) => [`${r.modelId} ${r.sampleId}`, JSON.stringify([r.status, r.output?.text, r.output?.rawResponse, r.score])]));
}

for (const task of ['metatool/awareness', 'metatool/multi'] as const) {
  test(`${task}: a baseline run stopped half-way, resumed and re-scored by fresh CLI processes, answers as an uninterrupted run`, { skip }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'assay-baseline-resume-'));
    const spec: RunSpec = { task, models, seed: 11, options: { limit: 40 }, dataDir: testDataDir(), engine };
    try {
      const db = join(dir, 'a.db');
      const store = await openSqliteStore(db);
      const controller = new AbortController();
      const stopped = await startRun(spec, { store, signal: controller.signal, onProgress: (e) => e.finished >= 15 && controller.abort() });
      assert.equal(stopped.status, 'interrupted');
      await store.close();

      const resumed = await assay(['resume', stopped.run, '--json', '--db', db]);
      assert.equal(resumed.code, 0, resumed.stderr);
      const rescored = await assay(['rescore', stopped.run, '--json', '--db', db]);
      assert.equal(rescored.code, 0, rescored.stderr);
      const rescoredSummary = JSON.parse(rescored.stdout) as { rescore: { changed: number } };
      assert.equal(rescoredSummary.rescore.changed, 0);

      const freshDb = join(dir, 'b.db');
      const fresh = await assay(['run', task, ...models.flatMap((m) => ['-m', m]), '--limit', '40', '--seed', '11', '--data-dir', testDataDir(), '--json', '--db', freshDb]);
      assert.equal(fresh.code, 0, fresh.stderr);
      const freshRun = (JSON.parse(fresh.stdout) as { run: string }).run;

      const [after, other] = [await openSqliteStore(db), await openSqliteStore(freshDb)];
      const [resumedAnswers, freshAnswers] = [await answersOf(after, stopped.run), await answersOf(other, freshRun)];
      await Promise.all([after.close(), other.close()]);
      assert.equal(resumedAnswers.size, 80);
      assert.deepEqual(resumedAnswers, freshAnswers);
      // Both strategies answered (no sample refused as "unsupported").
      for (const value of resumedAnswers.values()) assert.equal(JSON.parse(value)[0], 'done', value);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
