import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { estimateRun } from '../../src/runner/estimate.js';
import { startRun } from '../../src/runner/run.js';
import type { RunSpec } from '../../src/runner/run-spec.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { runAssay } from '../../src/testing/spawn-cli.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';

/** Without the benchmark data these tests are skipped, saying how to get it. */
const skip = needsData('metatool');

const dataDir = testDataDir();
const spec: RunSpec = {
  task: 'metatool/similar',
  models: ['openai:priced', 'openai:unpriced', 'baseline:lexical'],
  seed: 3,
  options: { perTool: 1, limit: 12 },
  settings: { maxTokens: 50 },
  dataDir,
  engine: { concurrency: 2, timeoutMs: 1000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: true, prices: { 'openai:priced': { inputPerMillion: 2, outputPerMillion: 8 } } },
};

test('the estimate counts the prompts a run sends (read back from a real run of the same spec) and prices them', { skip }, async () => {
  const estimate = await estimateRun(spec);
  const dir = mkdtempSync(join(tmpdir(), 'assay-estimate-'));
  try {
    const store = await openSqliteStore(join(dir, 'a.db'));
    const run = await startRun({ ...spec, models: ['baseline:lexical'] }, { store });
    const prompts = (await store.loadSamples(run.run)).map((s) => s.input.map((m) => m.content).join(''));
    await store.close();
    const tokens = prompts.reduce((n, p) => n + Math.ceil(p.length / 4), 0);
    assert.equal(estimate.samples, 12);
    const [priced, unpriced, free] = estimate.models;
    assert.deepEqual(priced, {
      model: 'openai:priced',
      calls: 12,
      free: false,
      input_tokens: tokens,
      output_tokens_max: 600,
      input_cost_usd: (tokens * 2) / 1e6,
      cost_usd_max: (tokens * 2) / 1e6 + (600 * 8) / 1e6,
    });
    assert.equal(unpriced?.input_cost_usd, null);
    assert.equal(unpriced?.cost_usd_max, null);
    assert.deepEqual([free?.free, free?.cost_usd_max], [true, 0]);
    assert.equal(estimate.judge, undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('assay run --estimate prints the estimate and stores nothing', { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'assay-estimate-cli-'));
  try {
    const db = join(dir, 'never.db');
    const base = ['run', 'metatool/similar', '-m', 'openai:priced', '--per-tool', '1', '--limit', '12', '--seed', '3', '--price', 'openai:priced=2/8', '--db', db, '--estimate'];
    const json = await runAssay([...base, '--max-tokens', '50', '--json'], { ASSAY_DATA_DIR: dataDir });
    assert.equal(json.code, 0, json.stderr);
    const estimate = JSON.parse(json.stdout) as { samples: number; models: { output_tokens_max: number; cost_usd_max: number; input_tokens: number }[] };
    assert.equal(estimate.samples, 12);
    assert.equal(estimate.models[0]?.output_tokens_max, 600);
    assert.ok(Math.abs((estimate.models[0]?.cost_usd_max ?? 0) - ((estimate.models[0]?.input_tokens ?? 0) * 2 + 600 * 8) / 1e6) < 1e-12);
    const text = await runAssay(base, { ASSAY_DATA_DIR: dataDir });
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^estimate for metatool\/similar: 12 samples \(no model called, nothing stored\)\n  openai:priced: 12 calls, input ≈ [\d,]+ tokens \(\$[\d.]+\), output not bounded \(give --max-tokens to bound it\): \$[\d.]+ plus the answers\n/);
    assert.equal(existsSync(db), false, 'no database was created');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
