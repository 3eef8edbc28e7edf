import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

test('--estimate prices declared models by their declaration: a local model is free, an application target billed: at its declared price, else unknown', { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'assay-estimate-declared-'));
  try {
    writeFileSync(join(dir, 'agent.mjs'), 'export default async () => ({ text: "No" });\n');
    writeFileSync(
      join(dir, 'assay.yaml'),
      [
        'models:',
        '  mine:',
        '    provider: local',
        '    model: m.gguf',
        '  mine-priced:',
        '    provider: local',
        '    model: m.gguf',
        '    price: { input: 1, output: 2 }',
        '  app:',
        '    module: ./agent.mjs',
        '  app-priced:',
        '    module: ./agent.mjs',
        '    price: { input: 3, output: 5 }',
        '',
      ].join('\n'),
    );
    const db = join(dir, 'never.db');
    const models = ['mine', 'mine-priced', 'app', 'app-priced'].flatMap((m) => ['-m', m]);
    const out = await runAssay(['run', 'metatool/awareness', '--config', join(dir, 'assay.yaml'), ...models, '--limit', '4', '--max-tokens', '10', '--estimate', '--json', '--db', db], { ASSAY_DATA_DIR: dataDir, ASSAY_CONFIG: '' });
    assert.equal(out.code, 0, out.stderr);
    const estimate = JSON.parse(out.stdout) as { models: { model: string; free: boolean; input_tokens: number; output_tokens_max: number; input_cost_usd: number | null; cost_usd_max: number | null }[] };
    const [mine, minePriced, app, appPriced] = estimate.models;
    assert.ok(mine && minePriced && app && appPriced);
    const tokens = mine.input_tokens;
    assert.ok(tokens > 0);
    assert.equal(mine.output_tokens_max, 4 * 10);
    // A local model costs nothing, a price declared or not (the run counts it so: its provider is not billed);
    // an application is billed, at its declared price or an unknown one.
    assert.deepEqual([mine.free, mine.input_cost_usd, mine.cost_usd_max], [true, 0, 0]);
    assert.deepEqual([minePriced.free, minePriced.input_cost_usd, minePriced.cost_usd_max], [true, 0, 0]);
    assert.deepEqual([app.free, app.input_cost_usd, app.cost_usd_max], [false, null, null]);
    assert.ok(Math.abs((appPriced.cost_usd_max ?? NaN) - (tokens * 3 + 40 * 5) / 1e6) < 1e-15);
    assert.equal(existsSync(db), false, 'nothing stored');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a cases estimate counts each case\'s own rubrics: 2 + 0 + 1 rubric judgments, not the most rubrics of one case for every case', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'assay-estimate-cases-'));
  try {
    const file = join(dir, 'cases.yaml');
    writeFileSync(file, [
      '- id: two-rubrics',
      '  input: How long do I have to return a bike?',
      '  expect:',
      '    - rubric: States the 30-day window.',
      '    - rubric: Stays polite.',
      '- id: no-rubric',
      '  input: Say hello.',
      '  expect:',
      '    - contains: hello',
      '- id: one-rubric',
      '  input: Say goodbye.',
      '  expect:',
      '    - rubric: Says goodbye.',
      '',
    ].join('\n'));
    const estimate = await estimateRun({
      task: 'cases',
      models: ['openai:a', 'openai:b'],
      seed: 1,
      options: { task: { file } },
      settings: {},
      dataDir,
      repeats: 2,
      judge: { model: 'openai:judge', repeats: 3, format: 'text', maxParseRetries: 1, temperature: 0 },
      engine: { concurrency: 1, timeoutMs: 1000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: true },
    });
    // Per output: 3 rubrics in all × 3 judge repeats × (1 + 1 re-ask); outputs: 2 repeats × 2 models.
    assert.deepEqual(estimate.judge, { model: 'openai:judge', repeats: 3, calls_max: 3 * 3 * 2 * 2 * 2 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
