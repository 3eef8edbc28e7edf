import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { METATOOL_MANIFEST } from '../datasets/metatool/manifest.js';
import { hasTestData, missingData, testDataLocation } from './test-data.js';

const root = mkdtempSync(path.join(tmpdir(), 'assay-test-data-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A clone at `<parent>/assay`, with `<parent>/shared/datasets` beside it when `shared`. */
function clone(name: string, shared: boolean): string {
  const repo = path.join(root, name, 'assay');
  mkdirSync(repo, { recursive: true });
  if (shared) mkdirSync(path.join(root, name, 'shared', 'datasets'), { recursive: true });
  return repo;
}

/** Every file the MetaTool manifest pins, written empty under `dir` (presence is what is checked). */
function allMetaToolFiles(dir: string): void {
  const files = [...METATOOL_MANIFEST.files.map((f) => f.path), ...METATOOL_MANIFEST.derived.flatMap((g) => Object.values(g.outputs).map((o) => o.path))];
  for (const file of files) {
    const to = path.join(dir, ...file.split('/'));
    mkdirSync(path.dirname(to), { recursive: true });
    writeFileSync(to, '');
  }
}

test('the data is looked for in ASSAY_DATA_DIR, else ../shared/datasets beside the clone, else the user cache', () => {
  const withShared = clone('with-shared', true);
  const fresh = clone('fresh', false);
  assert.deepEqual(testDataLocation({ ASSAY_DATA_DIR: 'rel/data', XDG_CACHE_HOME: '/xdg' }, withShared), { dir: path.resolve('rel/data'), source: 'env' });
  assert.deepEqual(testDataLocation({ XDG_CACHE_HOME: '/xdg' }, withShared), { dir: path.join(root, 'with-shared', 'shared', 'datasets'), source: 'shared' });
  assert.deepEqual(testDataLocation({ ASSAY_DATA_DIR: '', XDG_CACHE_HOME: '/xdg' }, fresh), { dir: '/xdg/assay/datasets', source: 'cache' });
  assert.deepEqual(testDataLocation({ HOME: '/home/u' }, fresh), { dir: '/home/u/.cache/assay/datasets', source: 'cache' });
});

test('a data set is there only when every file it pins is: an interrupted download is not enough', () => {
  const dir = path.join(root, 'cache');
  assert.equal(hasTestData('metatool', dir), false);
  allMetaToolFiles(dir);
  assert.equal(hasTestData('metatool', dir), true);
  assert.equal(hasTestData('functionchat', dir), false);
  rmSync(path.join(dir, 'metatool', 'derived', 'tool_neighbors_top20.json'));
  assert.equal(hasTestData('metatool', dir), false);
  assert.equal(hasTestData('bbc', dir), false);
  mkdirSync(path.join(dir, 'bbc', 'business'), { recursive: true });
  assert.equal(hasTestData('bbc', dir), true);
});

test('without the data a test is skipped with one line saying how to get it; with ASSAY_DATA_DIR set it runs (and fails naming the file)', () => {
  const empty = path.join(root, 'empty');
  mkdirSync(empty);
  for (const source of ['shared', 'cache'] as const) {
    assert.equal(missingData({ dir: empty, source }, ['metatool']), 'needs the MetaTool data: set ASSAY_DATA_DIR or run `npx assay data fetch metatool`');
    assert.equal(missingData({ dir: empty, source }, ['bbc', 'functionchat']), 'needs the BBC News articles (not downloadable by assay): set ASSAY_DATA_DIR to a folder with bbc/');
  }
  assert.equal(missingData({ dir: empty, source: 'env' }, ['metatool', 'functionchat']), false);
  // The BBC articles cannot be fetched: missing, they are a skip wherever the data dir came from.
  assert.match(missingData({ dir: empty, source: 'env' }, ['bbc']) || '', /^needs the BBC News articles/);
  const full = path.join(root, 'full');
  allMetaToolFiles(full);
  assert.equal(missingData({ dir: full, source: 'cache' }, ['metatool']), false);
  assert.match(missingData({ dir: full, source: 'cache' }, ['metatool', 'functionchat']) || '', /^needs the FunctionChat-Bench data: .*npx assay data fetch functionchat/);
});
