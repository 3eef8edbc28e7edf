import { existsSync } from 'node:fs';
import path from 'node:path';
import { isFolder } from '../core/create-folder.js';
import { resolveDataDir } from '../datasets/data-dir.js';
import { getManifest } from '../datasets/fetch/manifests.js';
import { packageRoot } from '../version.js';

/** A benchmark data set some tests read: the two assay pins and fetches, and the BBC articles. */
export type TestDataset = 'metatool' | 'functionchat' | 'bbc';

export interface TestDataLocation {
  /** Absolute path of the folder that contains `metatool/`, `functionchat/`, `bbc/`. */
  readonly dir: string;
  /** `env`: the user named it (`ASSAY_DATA_DIR`), so a data set missing there is an error, not a skip. */
  readonly source: 'env' | 'shared' | 'cache';
}

/**
 * Where the tests read benchmark data: `ASSAY_DATA_DIR` when set, else `../shared/datasets`
 * beside the repository when present (this workspace, CI), else the user cache that
 * `assay data fetch` fills. Tests never download: the cache is used only as it is.
 */
export function testDataLocation(env: NodeJS.ProcessEnv = process.env, root: string = packageRoot): TestDataLocation {
  const fromEnv = env['ASSAY_DATA_DIR'];
  if (fromEnv) return { dir: path.resolve(fromEnv), source: 'env' };
  const shared = path.resolve(root, '../shared/datasets');
  if (isFolder(shared)) return { dir: shared, source: 'shared' };
  return { dir: resolveDataDir({ env: { ...env, ASSAY_DATA_DIR: '' } }).dir, source: 'cache' };
}

/** The folder {@link testDataLocation} names. */
export function testDataDir(): string {
  return testDataLocation().dir;
}

/** Path of a file of the MetaTool data set, e.g. `metatoolFile('tmp_dataset/Task1.json')`. */
export function metatoolFile(relative: string): string {
  return path.join(testDataDir(), 'metatool', ...relative.split('/'));
}

/** Whether a data set's files are all in `dir` (present, not checked: the runs check their sums). */
export function hasTestData(dataset: TestDataset, dir: string = testDataDir()): boolean {
  if (dataset === 'bbc') return isFolder(path.join(dir, 'bbc', 'business'));
  const manifest = getManifest(dataset);
  const files = [...manifest.files.map((f) => f.path), ...manifest.derived.flatMap((g) => Object.values(g.outputs).map((o) => o.path))];
  return files.every((file) => existsSync(path.join(dir, ...file.split('/'))));
}

/** The one line a test without its data is skipped with: what it needs and how to get it. */
export function missingDataReason(dataset: TestDataset): string {
  switch (dataset) {
    case 'metatool':
      return 'needs the MetaTool data: set ASSAY_DATA_DIR or run `npx assay data fetch metatool`';
    case 'functionchat':
      return 'needs the FunctionChat-Bench data: set ASSAY_DATA_DIR or run `npx assay data fetch functionchat`';
    case 'bbc':
      return 'needs the BBC News articles (not downloadable by assay): set ASSAY_DATA_DIR to a folder with bbc/';
  }
}

/**
 * The `skip` option of a test or suite that reads benchmark data: `false` (run it) when every data
 * set it names is present, else the one line saying how to run it. With `ASSAY_DATA_DIR` set the
 * pinned data sets are never skipped: the user said where the data is, so a missing file there
 * fails the test naming it (CI sets it, so its data-backed tests cannot quietly turn into skips).
 * Usage: `test('…', { skip: needsData('metatool') }, async () => …)`.
 */
export function needsData(...datasets: TestDataset[]): false | string {
  return missingData(testDataLocation(), datasets);
}

/** {@link needsData} for a given location. */
export function missingData(location: TestDataLocation, datasets: readonly TestDataset[]): false | string {
  for (const dataset of datasets) {
    if (location.source === 'env' && dataset !== 'bbc') continue;
    if (!hasTestData(dataset, location.dir)) return missingDataReason(dataset);
  }
  return false;
}
