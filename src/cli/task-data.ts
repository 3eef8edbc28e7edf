import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { InputError, describeError } from '../core/index.js';
import { findTask } from '../benchmarks/registry.js';
import { resolveDataDir, type ResolvedDataDir } from '../datasets/data-dir.js';
import type { EnsureDatasetResult } from '../datasets/fetch/download.js';
import type { DatasetManifest } from '../datasets/fetch/manifest.js';
import { getManifest } from '../datasets/fetch/manifests.js';
import { createDownloadReporter } from './download-progress.js';
import { printErr } from './terminal.js';

/** The data-dir folder a task reads (`metatool`, `functionchat`), as the task declares it; undefined for a task that reads only the user's own files. */
export function datasetOf(taskName: string): string | undefined {
  return findTask(taskName).dataset;
}

/**
 * The mirror to download a dataset from instead of its manifest's `baseUrl`:
 * `ASSAY_<DATASET>_BASE_URL`, laid out like that base URL — `ASSAY_METATOOL_BASE_URL` like
 * MetaTool's `dataset/` folder at its commit, `ASSAY_FUNCTIONCHAT_BASE_URL` like the
 * FunctionChat-Bench repository's raw root (`<commit>/data/<file>`, `<commit>/LICENSE`).
 */
export function baseUrlOverride(dataset: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env[`ASSAY_${dataset.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_BASE_URL`];
  return value === undefined || value === '' ? undefined : value;
}

/** The manifest of a dataset assay can download, or undefined for one it cannot. */
function manifestOf(dataset: string): DatasetManifest | undefined {
  try {
    return getManifest(dataset);
  } catch (error) {
    if (error instanceof InputError) return undefined;
    throw error;
  }
}

/** Every pinned path of a manifest is present (by name only: hashing is `assay data verify`'s job). */
function allPresent(dataDir: string, manifest: DatasetManifest): boolean {
  const paths = [...manifest.files.map((f) => f.path), ...manifest.derived.flatMap((g) => [g.outputs.embeddings.path, g.outputs.neighbors.path])];
  return paths.every((p) => existsSync(path.join(dataDir, ...p.split('/'))));
}

export interface DownloadDatasetOptions {
  readonly dataDir: string;
  readonly signal?: AbortSignal;
}

/**
 * Downloads what is missing of a dataset into `dataDir` (every file checked against its sha256),
 * reporting progress and warnings on stderr. Errors are `InputError`s with one-line messages.
 */
export async function downloadDataset(dataset: string, options: DownloadDatasetOptions): Promise<EnsureDatasetResult> {
  const baseUrl = baseUrlOverride(dataset);
  const reporter = createDownloadReporter();
  // Loaded on demand: the HTTP client and pickle reader cost startup time every other command would pay.
  const { ensureDataset } = await import('../datasets/fetch/download.js');
  try {
    return await ensureDataset(dataset, {
      dataDir: options.dataDir,
      onProgress: reporter.onProgress,
      onWarning: reporter.onWarning,
      ...(baseUrl ? { baseUrl } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    // A stop (Ctrl-C) is not a download failure: the caller reports it as an interruption.
    if (error instanceof InputError || options.signal?.aborted) throw error;
    // A file-system failure (read-only folder, disk full) is still the user's to fix, not a bug.
    throw new InputError(
      `could not download ${dataset} into ${options.dataDir} (${describeError(error)}); point --data-dir / ASSAY_DATA_DIR at a writable folder, or at one that already contains ${dataset}/`,
      { file: options.dataDir },
    );
  } finally {
    reporter.stop();
  }
}

/** A data dir and how it was chosen: `run` is the folder a stored run recorded. */
export interface DataDirChoice {
  readonly dir: string;
  readonly source: ResolvedDataDir['source'] | 'run';
}

const SOURCE_TEXT: Readonly<Record<DataDirChoice['source'], string>> = {
  flag: 'from --data-dir',
  env: 'from ASSAY_DATA_DIR',
  cache: 'the user cache',
  run: 'the data dir the run was made with',
};

export interface TaskDataOptions {
  /** Where the data should be, and how that was decided. */
  readonly dataDir: DataDirChoice;
  /** Whether a missing dataset may be downloaded (`--no-download` turns this off). */
  readonly download: boolean;
  readonly signal?: AbortSignal;
}

/**
 * Makes sure the dataset a task reads is in the data dir before the task opens it. A missing
 * `<dataDir>/<dataset>` is downloaded (unless downloads are off). In the user cache, which assay
 * manages, a folder missing some pinned file (an interrupted download) is completed too; a folder
 * the user named is taken as it is, since they may keep only the files they need.
 * @throws InputError naming the folder and how to point assay at the data.
 */
export async function ensureTaskData(taskName: string, options: TaskDataOptions): Promise<void> {
  const dataset = datasetOf(taskName);
  if (dataset === undefined) return;
  const { dir, source } = options.dataDir;
  const manifest = manifestOf(dataset);
  const folderMissing = !existsSync(path.join(dir, dataset));
  const cacheIncomplete = source === 'cache' && manifest !== undefined && !folderMissing && !allPresent(dir, manifest);
  if (!folderMissing && !cacheIncomplete) return;

  const where = `${path.join(dir, dataset)} (${SOURCE_TEXT[source]})`;
  if (!manifest) {
    throw new InputError(`${dataset} data not found in ${where}, and assay cannot download it; point --data-dir / ASSAY_DATA_DIR at a folder containing ${dataset}/`, { file: dir });
  }
  if (!options.download) {
    throw new InputError(
      `${manifest.title} data ${folderMissing ? 'not found' : 'incomplete'} in ${where} and downloads are disabled (--no-download); run "assay data fetch ${dataset}", or point --data-dir / ASSAY_DATA_DIR at a folder containing ${dataset}/`,
      { file: dir },
    );
  }
  printErr(`${manifest.title} data ${folderMissing ? 'not found' : 'incomplete'} in ${where}; downloading it (pinned by sha256)…\n`);
  let result: EnsureDatasetResult;
  try {
    result = await downloadDataset(dataset, { dataDir: dir, ...(options.signal ? { signal: options.signal } : {}) });
  } catch (error) {
    // Outside the cache, a dataset folder this call created must not survive half-filled: its mere
    // existence would make the next run skip the download and fail on a missing file. (In the
    // cache the next run completes it, keeping the files already downloaded and checked.)
    if (folderMissing && source !== 'cache') rmSync(path.join(dir, dataset), { recursive: true, force: true });
    // Every way out names the alternative to downloading (e.g. after a checksum mismatch too).
    if (error instanceof InputError && !error.message.includes('ASSAY_DATA_DIR')) {
      throw new InputError(`${error.message}; or point --data-dir / ASSAY_DATA_DIR at a folder containing ${dataset}/`, error.details);
    }
    throw error;
  }
  printErr(`${manifest.title}: downloaded ${result.downloaded.length} file(s), derived ${result.derived.length}, kept ${result.verified.length} already present, in ${path.join(dir, dataset)}\n`);
}

/**
 * The data dir of an existing run: `--data-dir` when given, else the one the run recorded. The
 * recorded one counts as the user cache only when it is the cache (so it may be completed).
 */
export function dataDirForRun(flag: string | undefined, recorded: string | undefined): DataDirChoice | undefined {
  if (flag) return resolveDataDir({ flag });
  if (!recorded) return undefined;
  const cache = resolveDataDir({ env: { ...process.env, ASSAY_DATA_DIR: '' } });
  return { dir: recorded, source: path.resolve(recorded) === cache.dir ? 'cache' : 'run' };
}

/** `ensureTaskData`, but a download stopped by Ctrl-C is `false` (exit 130), not an error. */
export async function dataReady(taskName: string, options: TaskDataOptions & { signal: AbortSignal }): Promise<boolean> {
  try {
    await ensureTaskData(taskName, options);
    return true;
  } catch (error) {
    if (!options.signal.aborted) throw error;
    printErr('stopped while downloading the data; nothing was run\n');
    return false;
  }
}
