import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding package.json at or above `start`, if any. */
function repoRootFrom(start: string): string | undefined {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * The data dir tests read (the folder that contains `metatool/`): `ASSAY_DATA_DIR` when set, else
 * `../shared/datasets` beside the repository. The repository is found from this file, or from the
 * working directory when the tests were compiled outside it (`tsc --outDir /tmp/...`).
 */
export function testDataDir(): string {
  const fromEnv = process.env['ASSAY_DATA_DIR'];
  if (fromEnv) return path.resolve(fromEnv);
  const root = repoRootFrom(path.dirname(fileURLToPath(import.meta.url))) ?? repoRootFrom(process.cwd());
  if (!root) throw new Error('cannot find the repository (no package.json above this file or the working directory); set ASSAY_DATA_DIR');
  return path.resolve(root, '../shared/datasets');
}

/** Path of a file of the MetaTool data set, e.g. `metatoolFile('tmp_dataset/Task1.json')`. */
export function metatoolFile(relative: string): string {
  return path.join(testDataDir(), 'metatool', ...relative.split('/'));
}
