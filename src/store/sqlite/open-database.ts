import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { InputError } from '../../core/errors.js';
import { applyMigrations } from './migrate.js';
import type { Migration } from './migrations.js';
import { createFolder } from '../../core/create-folder.js';
import { diagnoseDatabasePath } from './path-problem.js';

/** True for the paths better-sqlite3 treats as a private in-memory/temporary database. */
const isMemoryPath = (file: string): boolean => file === ':memory:' || file === '';

/**
 * Opens (creating folders and file as needed) an assay SQLite database, sets the pragmas and
 * brings the schema up to date. Problems with the file itself become `InputError`s naming it.
 */
export function openDatabase(file: string, migrations?: readonly Migration[]): Database.Database {
  if (!isMemoryPath(file)) createFolderOf(file);
  let db: Database.Database;
  try {
    db = new Database(file);
  } catch (error) {
    throw new InputError(`cannot open database ${file}: ${diagnoseDatabasePath(file) ?? (error as Error).message}`, { file });
  }
  try {
    // Set first: switching to WAL and migrating may have to wait for another process's lock.
    db.pragma('busy_timeout = 5000');
    // For a new file only (an existing database keeps its page size): a finished sample writes a
    // ~3 KB prompt plus its call and result, and 8 KB pages cost ~20% less CPU per stored outcome
    // than the default 4 KB (fewer WAL frames, b-tree splits and write calls; docs/benchmarks.md).
    db.pragma('page_size = 8192');
    // WAL + synchronous=NORMAL: a commit is appended to the WAL with write(2) but not fsync'd.
    // The OS holds it, so a committed transaction survives kill -9 of this process; only a
    // power loss or OS crash can drop the last few commits (the file stays consistent either
    // way). FULL would fsync every commit, which the 10,000-outcome hot path cannot afford.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // 1 MB of page cache per connection rather than better-sqlite3's 16 MB: a run's writes append
    // and its reads are single passes, so the hot pages fit. What 4 MB held more was mostly the
    // end of a run's single passes (the summary's pages, the spend's scan of every call), which
    // filled it and made the process's peak: 19,793 samples 147 → 140 MB, with the same CPU for
    // MetaTool, summaries (call cache on) and harm at 1, 2 and 4 MB (docs/benchmarks.md, "the end
    // of a run"; 16 → 4 MB was ~12 MB less at 10,000 samples with the same wall time).
    db.pragma('cache_size = -1000');
    applyMigrations(db, file, migrations);
    return db;
  } catch (error) {
    db.close();
    throw translateOpenError(error, file);
  }
}

/**
 * Creates the folder a database goes in. A path the user cannot have there (a file in the way, no
 * permission, a read-only disk, a folder under /proc) is their input to fix, so it is an
 * `InputError` with the folder and the reason rather than an unexpected failure (or, with Node's
 * recursive mkdir under /proc, a hang: see `createFolder`).
 */
function createFolderOf(file: string): void {
  const folder = dirname(resolve(file));
  const problem = createFolder(folder);
  if (problem === undefined) return;
  const where = problem.at === folder ? '' : `${problem.at}: `;
  throw new InputError(`cannot create folder ${folder} for database ${file}: ${where}${problem.reason}`, { file });
}

/** SQLite's own codes for "this is not (or no longer) a database" → one clear line for the user. */
function translateOpenError(error: unknown, file: string): unknown {
  if (!(error instanceof Database.SqliteError)) return error;
  if (error.code === 'SQLITE_NOTADB') {
    return new InputError(`${file} is not a SQLite database (expected an assay store, e.g. assay.db)`, { file });
  }
  if (error.code.startsWith('SQLITE_CORRUPT')) {
    return new InputError(`database ${file} is damaged: ${error.message}`, { file });
  }
  if (error.code.startsWith('SQLITE_CANTOPEN') || error.code.startsWith('SQLITE_READONLY') || error.code.startsWith('SQLITE_PERM')) {
    return new InputError(`cannot open database ${file}: ${diagnoseDatabasePath(file) ?? error.message}`, { file });
  }
  return error;
}
