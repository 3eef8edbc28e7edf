import { existsSync } from 'node:fs';
import { InputError } from '../core/errors.js';
import type { Store } from './store.js';
import { parseStoreUrl } from './store-url.js';

export interface OpenStoreOptions {
  /**
   * What to do with a SQLite file that does not exist: `create` it (a run), or refuse it with an
   * `InputError` naming the path (`existing`: a command that only reads a store, so that a
   * mistyped `--db` is said rather than answered "no runs yet" from a new empty file and folders).
   * `refusal` words the refusal after the path (default: ` (--db): check the path …`). PostgreSQL
   * is opened either way.
   */
  readonly missing?: 'create' | 'existing';
  readonly refusal?: string;
}

/**
 * Opens the store at `location` (see `StoreUrl`): a SQLite file path or `sqlite:<path>` (the
 * embedded default), or `postgres://…`. Each backend is loaded only when used, so a SQLite user
 * never loads the PostgreSQL client. A bad location, an unreachable server, a schema from a
 * newer assay or (with `missing: 'existing'`) a SQLite file that does not exist is an
 * `InputError` (one line, the URL's password hidden).
 */
export async function openStore(location: string, options: OpenStoreOptions = {}): Promise<Store> {
  const parsed = parseStoreUrl(location);
  if (parsed.backend === 'postgres') {
    const { openPostgresStore } = await import('./postgres/postgres-store.js');
    return openPostgresStore(parsed.url);
  }
  if (options.missing === 'existing' && parsed.path !== ':memory:' && !existsSync(parsed.path)) {
    throw new InputError(`no SQLite store at ${parsed.path}${options.refusal ?? ' (--db): check the path (assay run creates a store)'}`, { file: parsed.path });
  }
  const { openSqliteStore } = await import('./sqlite/sqlite-store.js');
  return openSqliteStore(parsed.path);
}
