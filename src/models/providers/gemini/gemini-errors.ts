import { isJsonObject as isObject, type CallErrorKind, type ModelCallError } from '../../../core/index.js';
import { httpCallError, kindForStatus } from '../../http/call-errors.js';
import { parseRetryAfterMs, type ResponseHeaders } from '../../http/retry-after.js';
import type { GeminiErrorBody } from './gemini-api-types.js';

/** A protobuf Duration in JSON form (`"22s"`, `"1.5s"`, `"0.250s"`) in ms; undefined if unreadable. */
export function parseDurationMs(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const match = /^(\d+(?:\.\d+)?)s$/.exec(text.trim());
  return match ? Math.round(Number(match[1]) * 1000) : undefined;
}

interface GoogleError {
  readonly message: string;
  readonly retryDelayMs: number | undefined;
  /** `ErrorInfo.reason`, e.g. API_KEY_INVALID. */
  readonly reason: string | undefined;
}

function readError(bodyText: string): GoogleError {
  try {
    const body = JSON.parse(bodyText) as GeminiErrorBody | null;
    if (isObject(body) && isObject(body.error)) {
      const { message, status, details } = body.error;
      let retryDelayMs: number | undefined;
      let reason: string | undefined;
      if (Array.isArray(details)) {
        for (const detail of details) {
          if (!isObject(detail)) continue;
          const type = typeof detail['@type'] === 'string' ? detail['@type'] : '';
          if (type.endsWith('google.rpc.RetryInfo')) retryDelayMs = parseDurationMs(detail.retryDelay);
          if (type.endsWith('google.rpc.ErrorInfo') && typeof detail.reason === 'string') reason = detail.reason;
        }
      }
      const text = typeof message === 'string' ? message : '';
      return { message: typeof status === 'string' ? `${status}: ${text}` : text, retryDelayMs, reason };
    }
  } catch {
    // Not JSON (a proxy's page): the text itself is the best message.
  }
  return { message: bodyText, retryDelayMs: undefined, reason: undefined };
}

/**
 * The `ModelCallError` for a non-2xx generateContent response (`bodyText`, `url` already
 * redacted). 429 RESOURCE_EXHAUSTED and 5xx (500 INTERNAL, 503 UNAVAILABLE, 504
 * DEADLINE_EXCEEDED) are retried; the wait comes from the body's `google.rpc.RetryInfo.retryDelay`,
 * else a `Retry-After` header. A bad key arrives as 400 INVALID_ARGUMENT with ErrorInfo reason
 * API_KEY_INVALID: classified `auth`, like 401/403.
 */
export function geminiErrorFromStatus(status: number, headers: ResponseHeaders, bodyText: string, url: string): ModelCallError {
  const info = readError(bodyText);
  const kind: CallErrorKind = info.reason === 'API_KEY_INVALID' ? 'auth' : kindForStatus(status);
  return httpCallError(status, url, bodyText, info.message, info.retryDelayMs ?? parseRetryAfterMs(headers), kind);
}
