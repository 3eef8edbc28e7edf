import { InputError } from '../core/errors.js';
import { redactUrlCredentials } from '../core/url-credentials.js';

/**
 * Where a store is, as the user writes it (`--db`, `$ASSAY_DB`, `openStore`):
 * - a file path (`runs.db`, `.assay/assay.db`) or `sqlite:<path>`: the embedded SQLite store;
 *   `:memory:` or `sqlite::memory:`, a private in-memory one;
 * - `postgres://…` or `postgresql://…`: a PostgreSQL database (libpq's URL form: user, password,
 *   host, port, database, and parameters such as `sslmode` or `options=-c search_path=…`).
 */
export type StoreUrl =
  | { readonly backend: 'sqlite'; readonly path: string }
  | { readonly backend: 'postgres'; readonly url: string };

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

/** Reads a store location; an unknown scheme or an empty path is an `InputError` naming it (password hidden). */
export function parseStoreUrl(text: string): StoreUrl {
  const scheme = SCHEME.exec(text)?.[1]?.toLowerCase();
  if (scheme === 'postgres' || scheme === 'postgresql') return { backend: 'postgres', url: text };
  if (scheme === 'sqlite') {
    throw new InputError(`store ${redactStoreUrl(text)}: write a SQLite store as sqlite:<path> (sqlite:runs.db, sqlite:/abs/runs.db) or as the path alone`);
  }
  if (scheme !== undefined) {
    throw new InputError(`store ${redactStoreUrl(text)}: unknown kind of store "${scheme}:"; give a SQLite file (path.db or sqlite:path.db) or postgres://user@host:5432/database`);
  }
  const path = /^sqlite:/i.test(text) ? text.slice('sqlite:'.length) : text;
  if (path.trim() === '') throw new InputError(`store "${text}": the SQLite path is empty; give a file such as .assay/assay.db`);
  return { backend: 'sqlite', path };
}

/**
 * The location as it may be shown: a password in the URL's user part or in a `password=` (or any
 * credential-named) parameter becomes `***` (`redactUrlCredentials`). Works on text that does not
 * parse as a URL too (it is what a message about a bad URL shows).
 */
export function redactStoreUrl(text: string): string {
  return redactUrlCredentials(text);
}
