import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { SHIPPED_HARM_RESOURCES_DIR } from '../../src/datasets/harm/index.js';
import { startRun, summarizeStoredRun } from '../../src/runner/run.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { startFakeOpenAIServer } from '../../src/testing/fake-openai-server.js';
import { harmRoles } from '../../src/testing/harm-roles.js';
import { runAssay } from '../../src/testing/spawn-cli.js';

// A run is summarized from the store alone: its task is not prepared again, so the data it was
// made from may be gone (a run made on another machine, a resource folder deleted since). Harm
// measurement is the hard case: its metrics need the resource's guideline and human labels,
// which the run stores with itself.
test('a harm run on a user resource folder is summarized after the folder is deleted (library and assay show)', async () => {
  const server = await startFakeOpenAIServer({ respond: harmRoles(5) });
  const dir = mkdtempSync(join(tmpdir(), 'assay-summary-from-store-'));
  try {
    const folder = join(dir, 'my-resource');
    cpSync(join(SHIPPED_HARM_RESOURCES_DIR, 'system-prompt-leakage'), folder, { recursive: true });
    const db = join(dir, 'a.db');
    const store = await openSqliteStore(db);
    const summary = await startRun(
      {
        task: `harm:${folder}`,
        models: ['openai:sut'],
        userModel: 'openai:user',
        judge: { model: 'openai:judge', repeats: 3, format: 'json', maxParseRetries: 1, temperature: 0 },
        seed: 5,
        options: {},
        dataDir: folder,
        engine: { concurrency: 2, timeoutMs: 5000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: true, openaiBaseURL: server.url },
      },
      { store, secrets: { openaiApiKey: 'sk-test' } },
    );
    assert.equal(summary.status, 'finished');
    const metrics = summary.models['openai:sut']?.metrics as Record<string, any>;
    // The figures harm.test.ts works out by hand for this resource and script, human labels included.
    assert.deepEqual([metrics['defects'], metrics['judged'], metrics['human_agreement'].n, metrics['leak_truth'].exact], [2, 6, 6, 4 / 6]);
    rmSync(folder, { recursive: true });
    assert.deepEqual(await summarizeStoredRun(store, summary.run), summary);
    await store.close();
    const shown = await runAssay(['show', summary.run, '--json', '--db', db]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.deepEqual((JSON.parse(shown.stdout) as typeof summary).models, summary.models);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
