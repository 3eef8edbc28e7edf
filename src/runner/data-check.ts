import path from 'node:path';
import { InputError } from '../core/index.js';
import { describeModified, modifiedDataFiles, type ModifiedDataFile } from '../datasets/pinned.js';

/**
 * Checks the files a task read against the sha256 assay pins for them, before the run is recorded
 * and before any model call: a benchmark's numbers mean something only on the benchmark's data,
 * and a changed byte would otherwise go unnoticed (the run would just record the new checksum).
 * Returns the modified files when `allow` (`--allow-modified-data`), to record with the run.
 * `known`: modifications already recorded with the run (a resume), which are not refused again.
 * @throws InputError naming each modified file, its pinned and its actual sha256.
 */
export function checkPinnedData(
  checksums: Readonly<Record<string, string>>,
  dataDir: string,
  allow: boolean,
  known: readonly ModifiedDataFile[] = [],
): ModifiedDataFile[] {
  const modified = modifiedDataFiles(checksums);
  const fresh = modified.filter((m) => !known.some((k) => k.file === m.file && k.actual === m.actual));
  if (fresh.length > 0 && !allow) {
    const datasets = [...new Set(fresh.map((m) => m.file.split('/')[0] ?? m.file))];
    const first = fresh[0] as ModifiedDataFile;
    throw new InputError(
      `${fresh.length === 1 ? 'a data file differs' : `${fresh.length} data files differ`} from the sha256 assay pins for ${fresh.length === 1 ? 'it' : 'them'} in ${dataDir}: ${describeModified(fresh)}; ` +
        `restore it with "assay data fetch ${datasets.join(' / ')} --data-dir ${dataDir}" (check with "assay data verify ${datasets.join(' / ')} --data-dir ${dataDir}"), ` +
        'or run on it anyway with --allow-modified-data (recorded with the run and shown with its results)',
      { file: path.join(dataDir, ...first.file.split('/')) },
    );
  }
  return modified;
}
