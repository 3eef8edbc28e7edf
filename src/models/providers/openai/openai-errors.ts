import type { ModelCallError } from '../../../core/index.js';
import { httpCallError, kindForStatus } from '../../http/call-errors.js';
import { parseRetryAfterMs, type ResponseHeaders } from '../../http/retry-after.js';
import type { OpenAIErrorBody } from './openai-api-types.js';

export { MAX_ERROR_TEXT, oneLine, errorFromAbort, errorFromTransport } from '../../http/call-errors.js';

/** The human-readable message of an error body: `error.message` when JSON, else the raw text. */
export function serverErrorText(bodyText: string): string {
  try {
    const body = JSON.parse(bodyText) as OpenAIErrorBody | null;
    if (body && typeof body === 'object') {
      if (typeof body.error === 'string') return body.error;
      if (body.error && typeof body.error.message === 'string') return body.error.message;
      if (typeof body.message === 'string') return body.message;
    }
  } catch {
    // Not JSON (an HTML page from a proxy, plain text): the text itself is the best message.
  }
  return bodyText;
}

/** `error.code` of an OpenAI error body, when it has one. */
function serverErrorCode(bodyText: string): string | undefined {
  try {
    const body = JSON.parse(bodyText) as OpenAIErrorBody | null;
    if (body && typeof body === 'object' && body.error && typeof body.error === 'object' && typeof body.error.code === 'string') return body.error.code;
  } catch {
    // Not JSON: no code.
  }
  return undefined;
}

/**
 * The `ModelCallError` for a non-2xx response. `bodyText` and `url` must already be redacted.
 * `retryAfterMs` is carried for 429 and 5xx, the statuses the retry policy retries.
 */
export function errorFromStatus(status: number, headers: ResponseHeaders, bodyText: string, url: string): ModelCallError {
  // `model_not_found` is a missing model whatever the status (OpenAI sends 404; some compatible
  // servers and proxies send 400).
  const kind = serverErrorCode(bodyText) === 'model_not_found' ? 'not-found' : kindForStatus(status);
  return httpCallError(status, url, bodyText, serverErrorText(bodyText), parseRetryAfterMs(headers), kind);
}
