import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError } from '../../core/errors.js';
import { openStore } from '../open-store.js';
import type { Store } from '../store.js';
import { parseStoreUrl, redactStoreUrl, type StoreUrl } from '../store-url.js';

/**
 * Opens the two stores of a copy (`assay migrate --from … --to …`). Refused as `InputError`s
 * (one line, exit 2) before anything is written: a location that does not parse, the same store
 * twice, a SQLite source that does not exist (opening it would create an empty one), and what
 * `openStore` refuses (an unreachable server, a schema from a newer assay).
 */
export async function openStorePair(from: string, to: string): Promise<{ source: Store; target: Store }> {
  const [source, target] = [parseStoreUrl(from), parseStoreUrl(to)];
  if (sameLocation(source, target)) throw new InputError(`--from and --to are the same store (${redactStoreUrl(from)}); give another store to copy to`);
  const opened = await openStore(from, { missing: 'existing', refusal: ' to copy from (--from): check the path, or see assay runs --db <store>' });
  try {
    return { source: opened, target: await openStore(to) };
  } catch (error) {
    await opened.close();
    throw error;
  }
}

/**
 * Whether two locations name one store as far as their text tells: one SQLite file (after
 * resolving the path and any symbolic link), or one PostgreSQL database and schema on the same
 * host and port. Two names for one host (localhost, 127.0.0.1) are not caught.
 */
export function sameLocation(a: StoreUrl, b: StoreUrl): boolean {
  if (a.backend === 'sqlite' && b.backend === 'sqlite') {
    if (a.path === ':memory:' || b.path === ':memory:') return false;
    return canonicalPath(a.path) === canonicalPath(b.path);
  }
  if (a.backend === 'postgres' && b.backend === 'postgres') return postgresIdentity(a.url) === postgresIdentity(b.url);
  return false;
}

function canonicalPath(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}

/** Host, port, database and search path: what decides which tables a PostgreSQL URL reaches (not the login). */
function postgresIdentity(url: string): string {
  try {
    const parsed = new URL(url);
    const options = parsed.searchParams.get('options') ?? '';
    return JSON.stringify([parsed.hostname.toLowerCase(), parsed.port || '5432', decodeURIComponent(parsed.pathname), options.replace(/\s+/g, ' ').trim()]);
  } catch {
    return url;
  }
}
