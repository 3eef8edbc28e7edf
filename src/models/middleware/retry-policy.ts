import { ModelCallError } from '../../core/index.js';
import type { RetryPolicy } from '../../core/engine-settings.js';

/** Declared with the engine settings, whose `retry` it is. */
export type { RetryPolicy };

export const defaultRetryPolicy: RetryPolicy = { maxRetries: 6, baseDelayMs: 500, maxDelayMs: 60_000 };

/** The longest Retry-After waited by default (`--max-retry-wait`): longer asks end the call. */
export const DEFAULT_MAX_RETRY_WAIT_MS = 120_000;

/** Waits before a retry from this long on are told (once per model), so a slow run is not a silent one. */
export const RETRY_NOTICE_MS = 5_000;

/** A wait in the user's words: "800 ms", "6 s", "2 min", "24 h (86400 s)". */
export function describeWait(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min (${s} s)`;
  return `${Math.round(s / 3600)} h (${s} s)`;
}

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
