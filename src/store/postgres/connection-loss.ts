/**
 * Network errors that mean the server could not be reached or the connection broke: worth
 * waiting out, not a refused statement.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/**
 * SQLSTATEs of a connection lost or a server going down or starting up: connection exceptions
 * (class 08) and operator intervention's shutdowns and "cannot connect now" (57P01–57P03).
 */
const CONNECTION_STATES = /^08|^57P0[123]$/;

/** node-postgres's own words for a connection that broke or never came (these carry no code). */
const DRIVER_MESSAGES = /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Connection is closed/i;

/**
 * True when a PostgreSQL store's error means the server was unreachable or the connection was
 * lost (a restart, a network fault): the statement may succeed once the server is back. False for
 * everything the server answered with (a constraint, a missing table, bad data).
 */
export function isConnectionLoss(error: unknown): boolean {
  if (error instanceof AggregateError) return error.errors.length > 0 && error.errors.every(isConnectionLoss);
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || (code.length === 5 && CONNECTION_STATES.test(code)))) return true;
  return typeof message === 'string' && DRIVER_MESSAGES.test(message);
}
