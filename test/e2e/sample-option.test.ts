import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { assay, linesOf } from '../../src/testing/cli-harness.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';

/**
 * `--sample N` against `--limit N` through the CLI, on a hand-made folder of articles in three
 * categories (BBC's layout: one folder a category, files in name order): 50 business, 30 sport,
 * 20 tech. The first 10 files are all business; a sample of 10 holds 5, 3 and 2 of them.
 */
let dir: string;
let articles: string;
const COUNTS = { business: 50, sport: 30, tech: 20 };

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'assay-sample-'));
  articles = join(dir, 'bbc');
  for (const [category, count] of Object.entries(COUNTS)) {
    mkdirSync(join(articles, category), { recursive: true });
    for (let i = 0; i < count; i++) writeFileSync(join(articles, category, `${String(i).padStart(3, '0')}.txt`), `${category} story ${i}\n\nThe ${category} desk reports item ${i}.`);
  }
});
after(() => rmSync(dir, { recursive: true, force: true }));

const ids = async (args: readonly string[]): Promise<string[]> => {
  const result = await assay(['samples', 'summaries/alignment', '--articles', articles, ...args, '--json']);
  assert.equal(result.code, 0, result.stderr);
  return linesOf(result.stdout).map((line) => (JSON.parse(line) as { id: string }).id);
};
const categoriesOf = (list: readonly string[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const id of list) counts[id.split('/')[0] as string] = (counts[id.split('/')[0] as string] ?? 0) + 1;
  return counts;
};

test('--limit takes the first N in order (all business); --sample N keeps each category\'s share, seeded by --seed', async () => {
  assert.deepEqual(categoriesOf(await ids(['--limit', '10'])), { business: 10 });
  const one = await ids(['--sample', '10', '--seed', '1']);
  assert.deepEqual(categoriesOf(one), { business: 5, sport: 3, tech: 2 });
  assert.deepEqual(one, [...one].sort(), 'kept in the task\'s order');
  assert.deepEqual(await ids(['--sample', '10', '--seed', '1']), one, 'the same seed draws the same sample');
  const two = await ids(['--sample', '10', '--seed', '2']);
  assert.notDeepEqual(two, one);
  assert.deepEqual(categoriesOf(two), { business: 5, sport: 3, tech: 2 });
});

test('--sample with --limit is refused in one line', async () => {
  const result = await assay(['samples', 'summaries/alignment', '--articles', articles, '--sample', '5', '--limit', '5']);
  assert.equal(result.code, 2);
  assert.equal(result.stderr, 'assay: give either --limit (the first N samples) or --sample (N drawn at random), not both\n');
});

test('a run records --sample in its options and calls the samples `assay samples` lists for the same seed', { skip: needsData('metatool') }, async () => {
  const db = join(dir, 'assay.db');
  const env = { ASSAY_DATA_DIR: testDataDir() };
  const selection = ['metatool/scenario', '--per-tool', '1', '--sample', '12', '--seed', '3'];
  const made = await assay(['run', ...selection, '-m', 'baseline:lexical', '--json', '--db', db], env);
  assert.equal(made.code, 0, made.stderr);
  const runs = JSON.parse((await assay(['runs', '--json', '--db', db])).stdout) as { id: string; options: { sample?: number; limit?: number } }[];
  assert.equal(runs[0]?.options.sample, 12);
  assert.equal(runs[0]?.options.limit, undefined);
  const listed = linesOf((await assay(['samples', ...selection, '--json'], env)).stdout).map((line) => (JSON.parse(line) as { id: string }).id);
  assert.equal(listed.length, 12);
  const exported = linesOf((await assay(['export', runs[0]?.id as string, '--db', db])).stdout).map((line) => (JSON.parse(line) as { sample_id?: string; id?: string }));
  const stored = exported.map((row) => row.sample_id ?? row.id);
  assert.deepEqual(stored, listed);
});
