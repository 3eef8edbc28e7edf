import type { ClientBase } from 'pg';
import { InputError } from '../../core/errors.js';
import { ASSAY_TABLES, MIGRATIONS, type Migration } from './migrations.js';

export interface MigrationOutcome {
  readonly from: number;
  readonly to: number;
}

/**
 * Brings the store's schema (the first schema of the connection's `search_path`) up to the last
 * version of `migrations`: the missing ones are applied in one transaction, under an advisory
 * lock on that schema, so two processes opening a new database do not both create the tables,
 * and a migration that fails leaves the schema as it was. Refuses a schema written by a newer
 * assay, and one that holds tables of the same names that are not an assay store's.
 * `where` names the store in messages (its URL, password hidden).
 */
export async function applyMigrations(client: ClientBase, where: string, migrations: readonly Migration[] = MIGRATIONS): Promise<MigrationOutcome> {
  checkMigrationList(migrations);
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  // Without a lock first: a store that is up to date (every open but the first) takes no write lock.
  const before = await readVersion(client, where, latest);
  if (before === latest) return { from: before, to: before };

  await client.query('BEGIN');
  try {
    const schema = (await client.query<{ schema: string | null }>('SELECT current_schema() AS schema')).rows[0]?.schema ?? null;
    if (schema === null) {
      throw new InputError(`PostgreSQL store ${where}: no schema to create assay's tables in (the search_path names none that exists)`);
    }
    await client.query("SELECT pg_advisory_xact_lock(hashtext('assay schema migrations'), hashtext($1))", [schema]);
    // Re-read under the lock: another process may have migrated since our first look.
    const current = await readVersion(client, where, latest);
    if (current === 0) await refuseForeignTables(client, where, schema);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version     integer PRIMARY KEY,
      description text NOT NULL,
      applied_at  timestamptz NOT NULL DEFAULT now()
    )`);
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      try {
        await client.query(migration.sql);
      } catch (error) {
        throw new Error(`migration ${migration.version} (${migration.description}) failed on PostgreSQL store ${where}: ${(error as Error).message}`, { cause: error });
      }
      // In the same transaction as the tables it describes: both commit, or neither.
      await client.query('INSERT INTO schema_migrations (version, description) VALUES ($1, $2)', [migration.version, migration.description]);
    }
    await client.query('COMMIT');
    return { from: current, to: latest };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * The last migration the store has applied (0 for a schema without assay's tables); refuses a
 * newer one, and a `schema_migrations` of another program (a web framework's has no description).
 */
async function readVersion(client: ClientBase, where: string, latest: number): Promise<number> {
  const shape = await client.query<{ columns: number; ours: boolean }>(
    `SELECT count(*)::int AS columns,
            bool_or(column_name = 'version' AND data_type = 'integer') AND bool_or(column_name = 'description') AS ours
     FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'schema_migrations'`,
  );
  const { columns, ours } = shape.rows[0] ?? { columns: 0, ours: false };
  if (columns === 0) return 0;
  if (!ours) throw new InputError(`PostgreSQL store ${where}: its schema_migrations table is not assay's; use another database or schema`);
  const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations');
  const version = rows[0]?.version ?? 0;
  if (version > latest) {
    throw new InputError(`PostgreSQL store ${where} has schema version ${version}; this assay understands up to ${latest} — upgrade assay`);
  }
  return version;
}

/** A schema without `schema_migrations` but with a table assay would create belongs to another program: never write into it. */
async function refuseForeignTables(client: ClientBase, where: string, schema: string): Promise<void> {
  const { rows } = await client.query<{ name: string }>(
    'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 AND table_name = ANY($2) ORDER BY table_name',
    [schema, [...ASSAY_TABLES]],
  );
  if (rows.length > 0) {
    const names = rows.map((r) => r.name).join(', ');
    throw new InputError(`PostgreSQL store ${where}: schema ${schema} already has tables named ${names} that are not an assay store's (no schema_migrations); use another database or schema`);
  }
}

/** Guards against a mis-edited migration list (a programming error, hence a plain Error). */
function checkMigrationList(migrations: readonly Migration[]): void {
  migrations.forEach((migration, i) => {
    if (migration.version !== i + 1) {
      throw new Error(`migration list is broken: entry ${i} has version ${migration.version}, expected ${i + 1}`);
    }
  });
}
