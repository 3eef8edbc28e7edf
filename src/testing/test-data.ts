import path from 'node:path';
import { packageRoot } from '../version.js';

/**
 * The read-only data dir tests and the benchmark read (the folder that contains `metatool/`):
 * `ASSAY_DATA_DIR` when set, else `../shared/datasets` beside the repository.
 */
export function testDataDir(): string {
  const fromEnv = process.env['ASSAY_DATA_DIR'];
  return fromEnv ? path.resolve(fromEnv) : path.resolve(packageRoot, '../shared/datasets');
}

/** Path of a file of the MetaTool data set, e.g. `metatoolFile('tmp_dataset/Task1.json')`. */
export function metatoolFile(relative: string): string {
  return path.join(testDataDir(), 'metatool', ...relative.split('/'));
}
