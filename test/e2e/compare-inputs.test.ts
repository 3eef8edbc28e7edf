import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { RunComparison } from '../../src/analysis/compare/run-comparison.js';
import { startRun } from '../../src/runner/run.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { assay, linesOf } from '../../src/testing/cli-harness.js';
import { startFakeOpenAIServer, type FakeServer } from '../../src/testing/fake-openai-server.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';
import { packageRoot } from '../../src/version.js';

/**
 * `assay compare` pairs a sample of run A with one of run B only when their stored inputs are the
 * same: two runs may give one id to two questions (MetaTool's `similar/<tool>/0` under another
 * `--seed`). The expectations are worked out from `assay samples --json` (the inputs compared as
 * JSON), not from the hash the comparison uses.
 */
let dir: string;
let server: FakeServer;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-compare-inputs-'));
  server = await startFakeOpenAIServer({ respond: () => ({ text: JSON.stringify({ reasoning: 'r', score: 5 }) }), latencyMs: 1 });
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

test('two metatool/similar runs with other seeds: the same ids ask other questions, so nothing pairs and compare refuses (exit 2)', { skip: needsData('metatool') }, async () => {
  const db = join(dir, 'similar.db');
  const env = { ASSAY_DATA_DIR: testDataDir() };
  const selection = (seed: string): string[] => ['metatool/similar', '--per-tool', '1', '--limit', '30', '--seed', seed];
  const inputs = async (seed: string): Promise<Map<string, string>> => {
    const listed = await assay(['samples', ...selection(seed), '--json'], env);
    return new Map(linesOf(listed.stdout).map((line) => JSON.parse(line) as { id: string; input: unknown; tools?: unknown }).map((s) => [s.id, JSON.stringify([s.input, s.tools])]));
  };
  const [one, two] = [await inputs('1'), await inputs('2')];
  // By hand from the listings: the same 30 ids, none with the same input (queries and candidate orders are drawn by the seed).
  assert.deepEqual([...one.keys()], [...two.keys()]);
  assert.equal([...one].filter(([id, input]) => two.get(id) === input).length, 0);
  const runs: string[] = [];
  for (const seed of ['1', '2']) {
    const made = await assay(['run', ...selection(seed), '-m', 'baseline:lexical', '--json', '--db', db], env);
    assert.equal(made.code, 0, made.stderr);
    runs.push((JSON.parse(made.stdout) as { run: string }).run);
  }
  const compared = await assay(['compare', runs[0] as string, runs[1] as string, '--db', db]);
  assert.equal(compared.code, 2, compared.stdout);
  assert.equal(compared.stdout, '');
  assert.equal(linesOf(compared.stderr).length, 1);
  assert.match(compared.stderr, /^assay: runs \S+ and \S+ share no sample with the same input and a result on both sides \(baseline:lexical: 0 result\(s\) in A, 0 in B, 30 under one id with another input\); the same ids ask other questions/);
});

test('two groundedness runs whose files differ in two contexts: 6 pairs, 2 "input differs" counted apart in the JSON, the text and the comparison page', async () => {
  const db = join(dir, 'grounded.db');
  const original = join(packageRoot, 'examples', 'groundedness.jsonl');
  const edited = join(dir, 'edited.jsonl');
  const lines = readFileSync(original, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { id: string; context: string });
  // Two items keep their id but get another context: another question for the model and the judge.
  writeFileSync(edited, `${lines.map((item, i) => JSON.stringify(i < 2 ? { ...item, context: `${item.context} (edited)` } : item)).join('\n')}\n`);
  const runs: string[] = [];
  const store = await openSqliteStore(db);
  try {
    for (const items of [original, edited]) {
      const summary = await startRun(
        {
          task: 'quality/groundedness', models: ['openai:answerer'], seed: 0, options: { task: { items } }, dataDir: dir,
          engine: { concurrency: 2, timeoutMs: 5000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: true, openaiBaseURL: server.url },
          judge: { model: 'openai:judge', repeats: 1, format: 'json', maxParseRetries: 0, temperature: 0 },
        },
        { store },
      );
      runs.push(summary.run);
    }
  } finally {
    await store.close();
  }
  const [a, b] = runs as [string, string];
  const json = await assay(['compare', a, b, '--json', '--db', db]);
  assert.equal(json.code, 0, json.stderr);
  const comparison = JSON.parse(json.stdout) as RunComparison;
  assert.deepEqual(comparison.comparisons[0]?.samples, { shared: 6, onlyInA: 0, onlyInB: 0, inputDiffers: 2, errors: 0 });
  assert.equal(comparison.comparisons[0]?.value?.decided, 6);
  const text = await assay(['compare', a, b, '--db', db]);
  assert.match(text.stdout, /samples: 6 in both runs, 0 only in A, 0 only in B, 2 input differs \(one id, another question: not paired\)/);
  const page = join(dir, 'compare.html');
  const written = await assay(['compare', a, b, '--out', page, '--db', db]);
  assert.equal(written.code, 0, written.stderr);
  assert.match(readFileSync(page, 'utf8'), /"inputDiffers":2/);
});
