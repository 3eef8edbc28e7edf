import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { InputError, sha256, type Sample } from '../../src/core/index.js';
import { loadUserTools } from '../../src/datasets/metatool/index.js';
import { lexicalNeighbours } from '../../src/benchmarks/metatool/tool-similarity.js';
import type { RunSpec } from '../../src/runner/run-spec.js';
import { resumeRun, startRun } from '../../src/runner/run.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { assay } from '../../src/testing/cli-harness.js';
import { OWN_TOOL_ENTRIES } from '../../src/testing/own-tool-set.js';
import { tempTinyGguf } from '../../src/testing/tiny-gguf.js';

const work = mkdtempSync(path.join(tmpdir(), 'assay-own-tools-'));
after(() => rmSync(work, { recursive: true, force: true }));

// An empty data dir: a run on the user's own tools must not read the benchmark data.
const emptyDataDir = path.join(work, 'no-data');
mkdirSync(emptyDataDir);


function writeTools(file: string, extra: object[] = []): void {
  writeFileSync(file, JSON.stringify([...OWN_TOOL_ENTRIES, ...extra], null, 2));
}

const engine: RunSpec['engine'] = { concurrency: 2, timeoutMs: 60_000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: false };

function similarSpec(tools: string, embedder: string, extra: Partial<RunSpec['options']> = {}): RunSpec {
  return { task: 'metatool/similar', models: ['baseline:lexical'], seed: 3, options: { perTool: 2, tools, embedder, ...extra }, settings: {}, dataDir: emptyDataDir, engine };
}

const candidatesOf = (s: Sample): string[] => s.metadata.candidates as string[];
const goldOf = (s: Sample): string => (s.metadata.gold as string[])[0] as string;

test('own tools, lexical: samples from the user\'s queries, gold + its 9 BM25-nearest shown, baseline answers, a changed file refuses resume', async () => {
  const file = path.join(work, 'tools-lexical.json');
  writeTools(file);
  const store = await openSqliteStore(':memory:');
  try {
    const summary = await startRun(similarSpec(file, 'lexical'), { store });
    assert.equal(summary.status, 'finished');
    const counts = summary.models['baseline:lexical']?.counts;
    assert.equal(counts?.samples, 20, '10 tools with 2 queries each; the 2 without queries add none');
    assert.equal(counts?.errors, 0, 'baseline:lexical answered every sample from its hints');
    assert.equal(typeof summary.models['baseline:lexical']?.metrics['csr'], 'number');

    const run = await store.getRun(summary.run);
    assert.deepEqual(run?.provenance.datasetChecksums, { [file]: sha256(readFileSync(file)) });
    assert.equal(run?.options.embedder, 'lexical');

    const catalogue = await loadUserTools(file, 10);
    const nearest = lexicalNeighbours(catalogue.value, 10);
    const samples = await store.loadSamples(summary.run);
    assert.equal(samples.length, 20);
    for (const s of samples) {
      const gold = goldOf(s);
      assert.equal(candidatesOf(s).length, 10);
      assert.deepEqual([...candidatesOf(s)].sort(), [...(nearest.get(gold) ?? [])].sort(), `${s.id}: gold and its 9 nearest`);
      assert.equal(s.metadata.embedder, 'lexical');
      assert.ok(catalogue.value.pool.queriesByTool.get(gold)?.includes(s.metadata.query as string));
      const prompt = s.input[0]?.content as string;
      assert.ok(prompt.includes(`tool name: ${gold}, tool description: ${catalogue.value.descriptions.get(gold) as string}\n`), 'the user\'s description, printed as written');
    }
    const goldPositions = new Set(samples.map((s) => (s.metadata.goldPositions as number[])[0]));
    assert.ok(goldPositions.size > 1, 'candidates are shuffled, not gold first');

    // Same file: resume works (nothing left to call). Changed file: refused.
    assert.equal((await resumeRun(summary.run, {}, { store })).status, 'finished');
    writeTools(file, [{ name: 'news', description: 'Headlines' }]);
    await assert.rejects(resumeRun(summary.run, {}, { store }), (e: unknown) => e instanceof InputError && e.message.includes(file) && e.message.includes('has changed'));
  } finally {
    await store.close();
  }
});

test('own tools: fewer than 10 tools is an InputError naming the file', async () => {
  const file = path.join(work, 'tools-few.json');
  writeFileSync(file, JSON.stringify(OWN_TOOL_ENTRIES.slice(0, 9)));
  const store = await openSqliteStore(':memory:');
  try {
    await assert.rejects(startRun(similarSpec(file, 'lexical'), { store }), (e: unknown) => e instanceof InputError && e.message.includes(file) && e.message.includes('at least 10'));
  } finally {
    await store.close();
  }
});

test('own tools, local: embedder: the plumbing (10 candidates, gold among them, embedder recorded)', async () => {
  // The tiny model's embeddings are nearly parallel: which tools are nearest is not checked.
  const tiny = await tempTinyGguf();
  const file = path.join(work, 'tools-local.json');
  writeTools(file);
  const store = await openSqliteStore(':memory:');
  const embedder = `local:${tiny.path}`;
  try {
    const summary = await startRun(similarSpec(file, embedder, { perTool: 1, limit: 4 }), { store });
    assert.equal(summary.status, 'finished');
    assert.equal((await store.getRun(summary.run))?.options.embedder, embedder);
    const samples = await store.loadSamples(summary.run);
    assert.equal(samples.length, 4);
    for (const s of samples) {
      assert.equal(candidatesOf(s).length, 10);
      assert.equal(new Set(candidatesOf(s)).size, 10);
      assert.ok(candidatesOf(s).includes(goldOf(s)));
      assert.equal(s.metadata.embedder, embedder);
    }
  } finally {
    await store.close();
    await tiny.dispose();
  }
});

test('CLI: --tools runs metatool/similar without the benchmark data; other tasks refuse it', async () => {
  const file = path.join(work, 'tools-cli.json');
  writeTools(file);
  const env = { ASSAY_DATA_DIR: emptyDataDir, XDG_CACHE_HOME: path.join(work, 'cache'), ASSAY_METATOOL_BASE_URL: 'http://127.0.0.1:9/unreachable/' };
  const db = path.join(work, 'cli.db');
  const ok = await assay(['run', 'metatool/similar', '--model', 'baseline:lexical', '--tools', file, '--per-tool', '1', '--json', '--db', db, '--no-download'], env);
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal((JSON.parse(ok.stdout) as { models: Record<string, { counts: { samples: number } }> }).models['baseline:lexical']?.counts.samples, 10);
  const other = await assay(['run', 'metatool/awareness', '--model', 'baseline:lexical', '--tools', file, '--db', db], env);
  assert.equal(other.code, 2);
  assert.match(other.stderr, /--tools and --embedder are for metatool\/similar only/);
  const lonely = await assay(['run', 'metatool/similar', '--model', 'baseline:lexical', '--embedder', 'lexical', '--db', db], env);
  assert.equal(lonely.code, 2);
  assert.match(lonely.stderr, /give --tools/);
});
