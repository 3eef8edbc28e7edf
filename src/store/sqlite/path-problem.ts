import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fsReason } from '../../core/fs-reason.js';

/**
 * Why SQLite cannot open or write `file`, found by asking the file system: SQLite's own message
 * ("unable to open database file") names neither the cause nor which path is at fault. Returns
 * undefined when the file system sees no problem (the SQLite message is then the best there is).
 */
export function diagnoseDatabasePath(file: string): string | undefined {
  const absolute = resolve(file);
  const folder = dirname(absolute);
  try {
    if (statSync(absolute).isDirectory()) return `${file} is a folder, not a database file`;
  } catch (error) {
    // A missing file is normal (SQLite creates it); any other failure is the answer.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return `${file}: ${fsReason(error)}`;
  }
  try {
    statSync(folder);
  } catch (error) {
    return `folder ${folder}: ${fsReason(error)}`;
  }
  // SQLite writes the database and, in WAL mode, its -wal and -shm files beside it: the folder must be writable.
  try {
    accessSync(folder, constants.W_OK);
  } catch (error) {
    return `cannot write in folder ${folder}: ${fsReason(error)}`;
  }
  try {
    accessSync(absolute, constants.R_OK | constants.W_OK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return `cannot write ${file}: ${fsReason(error)}`;
  }
  return undefined;
}
