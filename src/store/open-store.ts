import type { Store } from './store.js';
import { parseStoreUrl } from './store-url.js';

/**
 * Opens the store at `location` (see `StoreUrl`): a SQLite file path or `sqlite:<path>` (the
 * embedded default), or `postgres://…`. Each backend is loaded only when used, so a SQLite user
 * never loads the PostgreSQL client. A bad location, an unreachable server or a schema from a
 * newer assay is an `InputError` (one line, the URL's password hidden).
 */
export async function openStore(location: string): Promise<Store> {
  const parsed = parseStoreUrl(location);
  if (parsed.backend === 'postgres') {
    const { openPostgresStore } = await import('./postgres/postgres-store.js');
    return openPostgresStore(parsed.url);
  }
  const { openSqliteStore } = await import('./sqlite/sqlite-store.js');
  return openSqliteStore(parsed.path);
}
