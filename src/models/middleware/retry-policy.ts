import { ModelCallError } from '../../core/index.js';

export interface RetryPolicy {
  /** Retries after the first attempt (so at most maxRetries + 1 attempts). */
  readonly maxRetries: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { maxRetries: 6, baseDelayMs: 500, maxDelayMs: 60_000 };

/**
 * How long to wait before retry number `retry` (1-based) after `error`, or `undefined` when the
 * error must not be retried. Exponential backoff with full jitter (so many workers hitting the same
 * limit do not retry in lockstep); a server's Retry-After wins when it asks for longer.
 */
export function retryDelay(error: unknown, retry: number, policy: RetryPolicy, random: () => number): number | undefined {
  if (!(error instanceof ModelCallError) || !error.retryable || retry > policy.maxRetries) return undefined;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  const backoff = ceiling / 2 + random() * (ceiling / 2);
  const asked = error.extra.retryAfterMs;
  return asked !== undefined ? Math.max(asked, Math.min(backoff, asked + policy.baseDelayMs)) : backoff;
}
