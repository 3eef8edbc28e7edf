import type { CallErrorKind, ModelCallError } from '../../../core/index.js';
import { httpCallError, kindForStatus } from '../../http/call-errors.js';
import { parseRetryAfterMs, type ResponseHeaders } from '../../http/retry-after.js';
import type { AnthropicErrorBody } from './anthropic-api-types.js';

interface ErrorInfo {
  readonly message: string;
  readonly type: string | undefined;
  readonly code: string | undefined;
}

/** `error.message` (with `error.type`) of an Anthropic error body; the raw text when it is not one. */
function readError(bodyText: string): ErrorInfo {
  try {
    const body = JSON.parse(bodyText) as AnthropicErrorBody | null;
    if (body && typeof body === 'object' && body.error && typeof body.error === 'object') {
      const type = typeof body.error.type === 'string' ? body.error.type : undefined;
      const details = body.error.details;
      const code = details && typeof details === 'object' && typeof (details as { error_code?: unknown }).error_code === 'string' ? (details as { error_code: string }).error_code : undefined;
      const message = typeof body.error.message === 'string' ? body.error.message : '';
      return { message: type ? `${type}: ${message}` : message, type, code };
    }
  } catch {
    // Not JSON (a proxy's HTML page): the text itself is the best message.
  }
  return { message: bodyText, type: undefined, code: undefined };
}

/**
 * The `ModelCallError` for a non-2xx Messages response (`bodyText`, `url` already redacted).
 * 429 `rate_limit_error` and 529 `overloaded_error` are retried, honouring `retry-after`
 * (seconds) or `retry-after-ms`. A 429 whose `error.details.error_code` is
 * `enforced_spend_limit_reached` is the monthly spend cap, not a rate limit: retrying cannot
 * help before the month ends, so it is a `bad-request` (not retried).
 */
export function anthropicErrorFromStatus(status: number, headers: ResponseHeaders, bodyText: string, url: string): ModelCallError {
  const info = readError(bodyText);
  let kind: CallErrorKind = kindForStatus(status);
  if (info.code === 'enforced_spend_limit_reached') kind = 'bad-request';
  return httpCallError(status, url, bodyText, info.message, parseRetryAfterMs(headers), kind);
}
