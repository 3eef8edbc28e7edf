import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { InputError, sha256 } from '../core/index.js';

/** A data file's text with the identity a run records: its data-dir-relative key and checksum. */
export interface DataFile {
  /** Path relative to the data dir, always with `/` (e.g. `metatool/data/all_clean_data.csv`). */
  readonly key: string;
  /** Absolute path, for messages. */
  readonly file: string;
  readonly text: string;
  readonly sha256: string;
}

/**
 * Size from which a data file read whole counts as big data for the CLI's decision to collect
 * garbage once a run is prepared (`cli/drop-preparation-garbage.ts`): MetaTool's
 * all_clean_data.csv (2.77 MB), its shipped prompt files, the embeddings; no FunctionChat file.
 */
export const BIG_DATA_FILE = 2 * 1024 * 1024;

let bigDataFileBytes = 0;

/** Bytes of the big data files (`BIG_DATA_FILE`) read since the last call, which starts the count again. */
export function takeBigDataFileBytes(): number {
  const read = bigDataFileBytes;
  bigDataFileBytes = 0;
  return read;
}

/** A data file's bytes with the identity a run records (see `DataFile`). */
export interface DataFileBytes extends Omit<DataFile, 'text'> {
  readonly bytes: Buffer;
}

/**
 * Reads one data file as UTF-8 and checksums its bytes.
 * @param dataset how to name the data set in the error (`MetaTool data set`) and its top folder (`metatool`).
 * @throws InputError naming the file when it is missing or unreadable.
 */
export async function readDataFile(dataDir: string, key: string, dataset: { readonly title: string; readonly folder: string }): Promise<DataFile> {
  const read = await readDataFileBytes(dataDir, key, dataset);
  return { key: read.key, file: read.file, text: read.bytes.toString('utf8'), sha256: read.sha256 };
}

/** `readDataFile` without decoding the bytes (a reader that finds its structure in them, see `forEachCsvRecordOfBytes`). */
export async function readDataFileBytes(dataDir: string, key: string, dataset: { readonly title: string; readonly folder: string }): Promise<DataFileBytes> {
  const file = path.join(dataDir, ...key.split('/'));
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'file not found' : `cannot read it (${code ?? String(error)})`;
    throw new InputError(
      `${file}: ${why}; expected the ${dataset.title} in ${path.join(dataDir, dataset.folder)} (set ASSAY_DATA_DIR or --data-dir to the folder that contains ${dataset.folder}/)`,
      { file },
    );
  }
  if (bytes.length >= BIG_DATA_FILE) bigDataFileBytes += bytes.length;
  return { key, file, bytes, sha256: sha256(bytes) };
}
