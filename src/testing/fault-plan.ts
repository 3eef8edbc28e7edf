import { rngFor } from '../core/random.js';

/** What the fake server does instead of answering normally. */
export type Fault =
  | {
      readonly type: 'status';
      /** Usually 429, 500, 503, 400 or 401; any status is sent as given. */
      readonly status: number;
      /** Sent verbatim as the `Retry-After` header (seconds or an HTTP date). */
      readonly retryAfter?: string;
      /** Sent as the `retry-after-ms` header. */
      readonly retryAfterMs?: number;
      /** Response body, verbatim; default: an OpenAI-style `{"error":{…}}` JSON. */
      readonly body?: string;
    }
  /** Accept the request and never answer, until the client gives up or the server closes. */
  | { readonly type: 'hang' }
  /** Destroy the socket without answering. */
  | { readonly type: 'reset' }
  /** 200 with a body that is not JSON. */
  | { readonly type: 'bad-json' };

export type FaultType = Fault['type'];

/** What a fault (or answer) decision may depend on: everything is deterministic per key and attempt. */
export interface FaultContext {
  /** Content of the last user message: tests identify samples by it. */
  readonly key: string;
  /** 1-based count of requests seen with this key, this one included. */
  readonly attemptForKey: number;
  /** 0-based count of requests the server has seen, across keys. */
  readonly index: number;
}

export interface FaultPlanOptions {
  /** Share of keys (0..1) whose first attempt gets a 429. */
  readonly rate429?: number;
  /** Share of keys whose first attempt gets a 500. */
  readonly rate500?: number;
  /** Share of keys whose first attempt hangs (the client must time out). */
  readonly rateHang?: number;
  /** Share of keys whose first attempt has its socket reset. */
  readonly rateReset?: number;
  /** Share of keys whose first attempt gets a 200 with a non-JSON body. */
  readonly rateBadJson?: number;
  /** Chooses which keys are hit; the same seed always hits the same keys. */
  readonly seed?: number | string;
  /** Sent as `retry-after-ms` with each planned 429 (default: no retry hint). */
  readonly retryAfterMs?: number;
}

/**
 * The fault a plan gives the *first* attempt of `key` (later attempts are always answered), so
 * a client that retries always succeeds eventually. One uniform draw per key, seeded by (seed,
 * key), falls into consecutive bands: [0, rate429) → 429, then 500, hang, reset, bad-json.
 */
export function plannedFault(options: FaultPlanOptions, key: string): Fault | undefined {
  const bands: [number, Fault][] = [
    [options.rate429 ?? 0, { type: 'status', status: 429, ...(options.retryAfterMs !== undefined ? { retryAfterMs: options.retryAfterMs } : {}) }],
    [options.rate500 ?? 0, { type: 'status', status: 500 }],
    [options.rateHang ?? 0, { type: 'hang' }],
    [options.rateReset ?? 0, { type: 'reset' }],
    [options.rateBadJson ?? 0, { type: 'bad-json' }],
  ];
  const total = bands.reduce((sum, [rate]) => sum + rate, 0);
  if (bands.some(([rate]) => rate < 0) || total > 1) throw new RangeError(`fault rates must be ≥ 0 and sum to at most 1 (got ${total})`);
  if (total === 0) return undefined;
  let u = rngFor(options.seed ?? 0, `fault:${key}`).next();
  for (const [rate, fault] of bands) {
    if (u < rate) return fault;
    u -= rate;
  }
  return undefined;
}

/** A `faults` function for the fake server that follows `plannedFault` on first attempts only. */
export function faultPlan(options: FaultPlanOptions): (ctx: FaultContext) => Fault | undefined {
  plannedFault(options, ''); // validates the rates now rather than on the first request
  return (ctx) => (ctx.attemptForKey === 1 ? plannedFault(options, ctx.key) : undefined);
}
