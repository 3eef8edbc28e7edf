import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The PostgreSQL server tests use: `ASSAY_TEST_POSTGRES_URL`, else the machine's own server
 * (trust authentication, database `test`). Only `npm run test:services` runs these tests: a
 * fresh machine has no PostgreSQL.
 */
export const TEST_POSTGRES_URL = process.env['ASSAY_TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** `url` with its connections' search_path set to `schema` (libpq's `options` parameter), so a store's tables go there. */
export function withSearchPath(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('options', `-c search_path=${schema}`);
  return parsed.toString();
}

/**
 * Schemas of their own for tests (`t_<random>`), so tests run in parallel on one database and
 * leave nothing behind: `create` makes one and returns a store URL into it; `dropAll` drops
 * every schema it made (call it in `after`).
 */
export class ScratchSchemas {
  private admin: pg.Pool | undefined;
  private readonly made: string[] = [];

  constructor(private readonly url = TEST_POSTGRES_URL) {}

  private pool(): pg.Pool {
    this.admin ??= new pg.Pool({ connectionString: this.url, max: 2 });
    return this.admin;
  }

  /** A new empty schema; the URL of a store in it. */
  async create(): Promise<{ schema: string; url: string }> {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    try {
      await this.pool().query(`CREATE SCHEMA ${schema}`);
    } catch (error) {
      throw new Error(`the PostgreSQL tests need a server at ${this.url} (set ASSAY_TEST_POSTGRES_URL): ${(error as Error).message || String(error)}`, { cause: error });
    }
    this.made.push(schema);
    return { schema, url: withSearchPath(this.url, schema) };
  }

  /** Runs one statement as the administrator (a test that sets up a store by hand). */
  async query(text: string, values: unknown[] = []): Promise<pg.QueryResult> {
    return this.pool().query(text, values);
  }

  async dropAll(): Promise<void> {
    if (!this.admin) return;
    for (const schema of this.made.splice(0)) await this.admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await this.admin.end();
    this.admin = undefined;
  }
}
