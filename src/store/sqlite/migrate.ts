import type Database from 'better-sqlite3';
import { InputError } from '../../core/errors.js';
import { MIGRATIONS, type Migration } from './migrations.js';

/**
 * `PRAGMA application_id` of an assay store ("ASSY"). It lets us (and `file(1)`) tell an assay
 * database from another program's SQLite file, which we must never write tables into.
 */
export const ASSAY_APPLICATION_ID = 0x41535359;

export interface MigrationOutcome {
  readonly from: number;
  readonly to: number;
}

/**
 * Brings the database up to the last version of `migrations`, applying the missing ones in one
 * IMMEDIATE transaction (so two processes opening a fresh file cannot both create the tables,
 * and a failing migration leaves the file at its old version). Refuses a newer schema and a
 * SQLite file that belongs to another application.
 */
export function applyMigrations(db: Database.Database, file: string, migrations: readonly Migration[] = MIGRATIONS): MigrationOutcome {
  checkMigrationList(migrations);
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  const before = readVersion(db, file, latest);
  if (before === latest) return { from: before, to: before };

  const migrate = db.transaction(() => {
    // Re-read under the write lock: another process may have migrated since our first look.
    const current = readVersion(db, file, latest);
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      try {
        db.exec(migration.sql);
      } catch (error) {
        throw new Error(`migration ${migration.version} (${migration.description}) failed on database ${file}: ${(error as Error).message}`, { cause: error });
      }
      // user_version lives in the file header and is written inside the transaction, so the
      // version and the tables it describes always commit (or roll back) together.
      db.pragma(`user_version = ${migration.version}`);
    }
    db.pragma(`application_id = ${ASSAY_APPLICATION_ID}`);
    return current;
  });
  return { from: migrate.immediate(), to: latest };
}

/** Reads `user_version` and refuses files this build must not touch. */
function readVersion(db: Database.Database, file: string, latest: number): number {
  const version = db.pragma('user_version', { simple: true }) as number;
  const applicationId = db.pragma('application_id', { simple: true }) as number;
  if (applicationId !== 0 && applicationId !== ASSAY_APPLICATION_ID) {
    throw new InputError(`database ${file} is a SQLite file of another application (application_id ${applicationId}), not an assay store`, { file });
  }
  if (version > latest) {
    throw new InputError(`database ${file} has schema version ${version}; this assay understands up to ${latest} — upgrade assay`, { file });
  }
  if (version === 0 && applicationId === 0) {
    // A version-0 file is either brand new (empty) or someone else's database.
    const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' LIMIT 3").all();
    if (tables.length > 0) {
      const names = tables.map((t) => t.name).join(', ');
      throw new InputError(`database ${file} is a SQLite file with other tables (${names}), not an assay store`, { file });
    }
  }
  return version;
}

/** Guards against a mis-edited migration list (a programming error, hence a plain Error). */
function checkMigrationList(migrations: readonly Migration[]): void {
  migrations.forEach((migration, i) => {
    if (migration.version !== i + 1) {
      throw new Error(`migration list is broken: entry ${i} has version ${migration.version}, expected ${i + 1}`);
    }
  });
}
