import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * File-system error codes in the words a user acts on. `mkdir -p` under a regular file fails with
 * ENOTDIR (a file in the middle of the path) or EEXIST (a file where the last folder should be);
 * both mean the same thing to the user.
 */
const REASONS: Readonly<Record<string, string>> = {
  ENOTDIR: 'a path component is a file',
  EEXIST: 'a path component is a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENAMETOOLONG: 'the path is too long',
  ELOOP: 'too many symbolic links in the path',
  EISDIR: 'it is a folder',
  ENOENT: 'no such file or folder',
};

/** The user-facing reason of a Node file-system error, or undefined when it is not one. */
export function fsReason(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string' || !code.startsWith('E')) return undefined;
  return REASONS[code] ?? code;
}

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
