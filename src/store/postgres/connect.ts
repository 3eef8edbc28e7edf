import pg from 'pg';
import { InputError } from '../../core/errors.js';

/** `json` columns come back as their text: SQL NULL (absent) and JSON `null` must stay apart, as in the SQLite store. */
const JSON_OID = 114;
const jsonAsText: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === JSON_OID ? (text: string) => text : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

/** How long opening a store waits for the server before saying it cannot reach it. */
const CONNECT_TIMEOUT_MS = 10_000;

/** Connections a store keeps open at most: a run's concurrent saves and reads share them. */
const POOL_SIZE = 8;

/**
 * A pool on `url`, its first connection made (so an unreachable server, a wrong database or a
 * refused login is found now, as an `InputError` naming `where` and the server's reason).
 */
export async function connectPool(url: string, where: string): Promise<{ pool: pg.Pool; client: pg.PoolClient }> {
  let pool: pg.Pool;
  try {
    pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, application_name: 'assay', types: jsonAsText });
  } catch (error) {
    throw new InputError(`cannot open PostgreSQL store ${where}: ${describePgError(error)}`);
  }
  // An idle connection the server drops (a restart) must not crash the process: the next query says so.
  pool.on('error', () => undefined);
  try {
    return { pool, client: await pool.connect() };
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new InputError(`cannot open PostgreSQL store ${where}: ${describePgError(error)}`);
  }
}

/**
 * SQLSTATE classes that mean "the user's database or settings", not a bug of ours: connection
 * (08), login (28), no such database (3D) or schema (3F), privileges (42501), a server out of
 * connections (53), one starting or shutting down (57P), a read-only server (25006).
 */
const USER_FIXABLE = /^(08|28|3D|3F|53|57P)|^42501$|^25006$/;

/** True for a server error the user fixes in their database or URL (see `USER_FIXABLE`). */
export function isUserFixable(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.length === 5 && USER_FIXABLE.test(code);
}

/** One line on why a connection or a statement failed, in the words of the server or the network. */
export function describePgError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    // Node tries every address of a host name (IPv6 and IPv4): each attempt's reason, once.
    return [...new Set(error.errors.map(describePgError))].join('; ');
  }
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' && message !== '' ? message : String(code ?? error);
  if (code === 'ECONNREFUSED') return `${text} (is PostgreSQL running there?)`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `${text} (unknown host)`;
  if (/timeout/i.test(text)) return `no answer from the server within ${CONNECT_TIMEOUT_MS / 1000} s (${text})`;
  return text;
}
