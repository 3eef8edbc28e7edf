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
 * The read-only shared data dir (the folder holding `metatool/`): `ASSAY_DATA_DIR` when set, else
 * `../shared/datasets` beside the repository, found from this file or, when the tests were
 * compiled outside the repository (`tsc --outDir /tmp/...`), from the working directory.
 */
export function sharedDataDir(): string {
  const fromEnv = process.env['ASSAY_DATA_DIR'];
  if (fromEnv) return path.resolve(fromEnv);
  const root = repoRootFrom(path.dirname(fileURLToPath(import.meta.url))) ?? repoRootFrom(process.cwd());
  if (!root) throw new Error('cannot find the repository (no package.json above this file or the working directory); set ASSAY_DATA_DIR');
  return path.resolve(root, '../shared/datasets');
}

/** A file of the shared MetaTool copy, e.g. `sharedMetatoolFile('derived/tool_embedding.json')`. */
export function sharedMetatoolFile(relative: string): string {
  return path.join(sharedDataDir(), 'metatool', ...relative.split('/'));
}
