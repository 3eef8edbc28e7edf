import type { DatasetManifest } from './fetch/manifest.js';
import { MANIFESTS } from './fetch/manifests.js';

/** A data file whose bytes differ from the ones assay pins for it. */
export interface ModifiedDataFile {
  /** Data-dir-relative path, as the run records it (e.g. `metatool/plugin_des.json`). */
  readonly file: string;
  /** sha256 the manifest pins. */
  readonly pinned: string;
  /** sha256 of the bytes read. */
  readonly actual: string;
}

/** Every pinned path (upstream files and the outputs assay derives) → its sha256. */
function pinnedSums(manifests: readonly DatasetManifest[]): ReadonlyMap<string, string> {
  const sums = new Map<string, string>();
  for (const manifest of manifests) {
    for (const file of manifest.files) sums.set(file.path, file.sha256);
    for (const group of manifest.derived) for (const output of Object.values(group.outputs)) sums.set(output.path, output.sha256);
  }
  return sums;
}

/** The downloader's manifests: what `assay data verify` checks a data dir against. */
const PINNED = pinnedSums(MANIFESTS);

/**
 * The files among those a task read (data-dir-relative key → sha256 of the bytes read, its
 * `datasetChecksums`) whose bytes are not the pinned ones. No file is read again: the task
 * hashed each one as it read it. Keys nothing pins — a user's own files (`--tools`, `--rubric`),
 * recorded by absolute path — are not checked.
 */
export function modifiedDataFiles(checksums: Readonly<Record<string, string>>, pinned: ReadonlyMap<string, string> = PINNED): ModifiedDataFile[] {
  const modified: ModifiedDataFile[] = [];
  for (const [file, actual] of Object.entries(checksums)) {
    const expected = pinned.get(file);
    if (expected !== undefined && expected !== actual) modified.push({ file, pinned: expected, actual });
  }
  return modified.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** Whether a data-dir-relative path is one assay pins. */
export function isPinned(file: string): boolean {
  return PINNED.has(file);
}

/** `file (pinned c446ade5acfb…, read 0d2f9e1b7a44…)`, for messages and summaries. */
export function describeModified(files: readonly ModifiedDataFile[]): string {
  return files.map((f) => `${f.file} (pinned ${f.pinned.slice(0, 12)}…, read ${f.actual.slice(0, 12)}…)`).join(', ');
}
