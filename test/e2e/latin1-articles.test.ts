import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createScriptedProvider, ModelCallError, openSqliteStore, resumeRun, startRun, type RunSpec } from '../../src/index.js';

// Articles whose bytes are not UTF-8 are read as Latin-1 and recorded so in each sample; the
// user is told once per run, with how many and which files, before any model is called.

const dir = mkdtempSync(join(tmpdir(), 'assay-latin1-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** "Goal £5" and "café" in Latin-1: not valid UTF-8. */
const LATIN1 = [Buffer.from([0x47, 0x6f, 0x61, 0x6c, 0x20, 0xa3, 0x35]), Buffer.from([0x63, 0x61, 0x66, 0xe9])];

const engine: RunSpec['engine'] = { concurrency: 1, timeoutMs: 5000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: false };
const judge = { model: 'scripted:judge', repeats: 1, format: 'json' as const, maxParseRetries: 0, temperature: 0 };
// The judge is down: every sample ends in error, which is all this test needs (the warning comes before any call).
const providers = {
  'scripted:writer': createScriptedProvider({ id: 'scripted:writer', respond: () => 'A summary.' }),
  'scripted:judge': createScriptedProvider({ id: 'scripted:judge', respond: () => new ModelCallError('server', 'down') }),
};

test('summaries: one warning for the run naming how many articles were read as Latin-1 and the first few files, again on resume', async () => {
  const folder = join(dir, 'articles');
  mkdirSync(join(folder, 'sport'), { recursive: true });
  for (const [i, name] of ['a', 'b', 'c', 'd', 'e'].entries()) writeFileSync(join(folder, 'sport', `${name}.txt`), LATIN1[i % 2] as Buffer);
  writeFileSync(join(folder, 'sport', 'f.txt'), 'Plain UTF-8, caf\u00e9.');
  const store = await openSqliteStore(':memory:');
  try {
    const warnings: string[] = [];
    const spec: RunSpec = { task: 'summaries/alignment', models: ['scripted:writer'], seed: 0, options: { task: { articles: folder } }, dataDir: dir, engine, judge };
    const summary = await startRun(spec, { store, providers, onWarning: (w) => warnings.push(w) });
    const files = ['a', 'b', 'c'].map((n) => join(folder, 'sport', `${n}.txt`)).join(', ');
    const line = `5 of 6 article(s) in ${folder} are not valid UTF-8 and were read as Latin-1: ${files}, and 2 more (recorded as metadata.encoding); if that is not their encoding, convert them to UTF-8`;
    assert.deepEqual(warnings.filter((w) => w.includes('Latin-1')), [line]);
    const samples = await store.loadSamples(summary.run);
    assert.deepEqual(samples.map((s) => s.metadata['encoding'] ?? 'utf-8'), ['latin1', 'latin1', 'latin1', 'latin1', 'latin1', 'utf-8']);

    const again: string[] = [];
    await resumeRun(summary.run, { retryErrors: true }, { store, providers, onWarning: (w) => again.push(w) });
    assert.deepEqual(again.filter((w) => w.includes('Latin-1')), [line], 'a resume reads the articles again, and says so again');
  } finally {
    await store.close();
  }
});

test('summaries on UTF-8 articles: no such warning', async () => {
  const folder = join(dir, 'utf8');
  mkdirSync(folder);
  writeFileSync(join(folder, 'one.txt'), 'Caf\u00e9 society.');
  const store = await openSqliteStore(':memory:');
  try {
    const warnings: string[] = [];
    await startRun({ task: 'summaries/alignment', models: ['scripted:writer'], seed: 0, options: { task: { articles: folder } }, dataDir: dir, engine, judge }, { store, providers, onWarning: (w) => warnings.push(w) });
    assert.deepEqual(warnings.filter((w) => w.includes('Latin-1')), []);
  } finally {
    await store.close();
  }
});

test('groundedness: an items file that is not UTF-8 is named once', async () => {
  const file = join(dir, 'items.csv');
  writeFileSync(file, Buffer.concat([Buffer.from('question,context,answer\nPrice?,'), LATIN1[0] as Buffer, Buffer.from(',Five pounds.\n')]));
  const store = await openSqliteStore(':memory:');
  try {
    const warnings: string[] = [];
    await startRun({ task: 'quality/groundedness', models: ['given:answers'], seed: 0, options: { task: { items: file } }, dataDir: dir, engine, judge }, { store, providers, onWarning: (w) => warnings.push(w) });
    assert.deepEqual(warnings.filter((w) => w.includes('Latin-1')), [`${file} is not valid UTF-8 and was read as Latin-1 (all 1 item(s)); if that is not its encoding, convert it to UTF-8`]);
  } finally {
    await store.close();
  }
});
