import { ModelCallError, describeError, isJsonObject, type CallErrorKind } from '../../core/index.js';

/** Longest server error text carried in a `ModelCallError`. */
export const MAX_ERROR_TEXT = 500;

/** Collapses whitespace (messages are printed on one line) and truncates. */
export function oneLine(text: string, max: number = MAX_ERROR_TEXT): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The error kind of a non-2xx HTTP status, the same for every HTTP provider. */
export function kindForStatus(status: number): CallErrorKind {
  if (status === 429) return 'rate-limit';
  if (status === 401 || status === 403) return 'auth';
  // A model that does not exist (OpenAI model_not_found, Anthropic not_found_error, Gemini
  // NOT_FOUND, Ollama "model not found, try pulling it") or a base URL without the API's route:
  // the same answer for every request, which the runner's fail-fast stop needs to tell apart.
  if (status === 404) return 'not-found';
  // 408 means the server gave up waiting for us: a timeout, worth retrying like one.
  if (status === 408) return 'timeout';
  // 5xx includes Anthropic's 529 "overloaded".
  if (status >= 500) return 'server';
  if (status >= 400) return 'bad-request';
  // 1xx/3xx are not answers we can use (redirects are not followed).
  return 'bad-response';
}

/**
 * The `ModelCallError` for a non-2xx response, once the provider has read its error body.
 * `detail` is the server's message (already redacted); `retryAfterMs` is kept only for the
 * kinds the retry policy retries (429, 5xx). `kind` overrides the status mapping when the body
 * says more than the status (e.g. a 429 that is a spend cap, a 400 that is a bad key).
 */
export function httpCallError(
  status: number,
  url: string,
  bodyText: string,
  detail: string,
  retryAfterMs: number | undefined,
  kind: CallErrorKind = kindForStatus(status),
): ModelCallError {
  const extra: { status: number; retryAfterMs?: number; body: string } = { status, body: bodyText.slice(0, MAX_ERROR_TEXT) };
  if ((kind === 'rate-limit' || kind === 'server') && retryAfterMs !== undefined) extra.retryAfterMs = retryAfterMs;
  const text = oneLine(detail);
  return new ModelCallError(kind, `HTTP ${status} from POST ${url}${text ? `: ${text}` : ''}`, extra);
}

/** The error for a 2xx body we cannot use (not JSON, missing the answer): retried once like a server error. */
export function badResponse(status: number, bodyText: string, why: string): ModelCallError {
  return new ModelCallError('bad-response', `HTTP ${status} response ${why}: ${oneLine(bodyText, 200)}`, { status, body: bodyText.slice(0, MAX_ERROR_TEXT) });
}

/** A 2xx body parsed as a JSON object, or the `bad-response` error saying why it is not one. */
export function parseJsonObjectBody(bodyText: string, status: number): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    throw badResponse(status, bodyText, 'is not JSON');
  }
  if (!isJsonObject(body)) throw badResponse(status, bodyText, 'is not a JSON object');
  return body;
}

/** undici error codes that mean "the request never got a usable answer because of the connection". */
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);
/** undici codes that are programming errors, not network trouble: these are rethrown as they are. */
const PROGRAMMING_CODES = new Set(['UND_ERR_INVALID_ARG', 'UND_ERR_INVALID_RETURN_VALUE', 'UND_ERR_NOT_SUPPORTED']);

function errorCode(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  // Connection failures sometimes arrive wrapped (fetch-style `cause`, or AggregateError from
  // happy-eyeballs connects trying several addresses).
  const cause = (error as { cause?: unknown }).cause;
  if (cause && cause !== error) return errorCode(cause);
  const errors = (error as { errors?: unknown }).errors;
  if (Array.isArray(errors) && errors.length > 0) return errorCode(errors[0]);
  return undefined;
}

/** The error for an aborted signal: the middleware's own reason when it gave one (e.g. a timeout). */
export function errorFromAbort(signal: { readonly reason: unknown }): ModelCallError {
  const reason: unknown = signal.reason;
  if (reason instanceof ModelCallError) return reason;
  return new ModelCallError('aborted', `request aborted${reason === undefined ? '' : `: ${oneLine(describeError(reason), 200)}`}`);
}

/**
 * Maps what undici threw while sending or reading to a `ModelCallError`. An aborted signal wins
 * over whatever error the abort caused. Errors that are not transport errors are returned
 * unchanged so that bugs surface with their stack. `redact` scrubs the message.
 */
export function errorFromTransport(error: unknown, signal: { readonly aborted: boolean; readonly reason: unknown }, url: string, redact: (text: string) => string): unknown {
  if (signal.aborted) return errorFromAbort(signal);
  if (error instanceof ModelCallError) return error;
  const code = errorCode(error);
  if (code === undefined || PROGRAMMING_CODES.has(code)) return error;
  const isUndici = code.startsWith('UND_ERR_');
  const isSystem = /^E[A-Z0-9_]+$/.test(code);
  if (!isUndici && !isSystem) return error;
  const kind: CallErrorKind = TIMEOUT_CODES.has(code) ? 'timeout' : 'network';
  const text = describeError(error) || code;
  return new ModelCallError(kind, redact(`cannot complete POST ${url}: ${oneLine(text, 300)} (${code})`));
}
