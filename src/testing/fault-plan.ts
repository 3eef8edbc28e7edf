import { rngFor } from '../core/random.js';
import type { Fault, FaultContext } from '../demo/faults.js';

export type { Fault, FaultContext, FaultType } from '../demo/faults.js';

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
