import type { Redis } from 'ioredis';
import { abortable } from '../core/index.js';
import type { CallRecord } from '../store/records.js';
import { formatUsd, type BudgetFactory, type RunBudget } from './budget.js';

/** How long a run's shared spend outlives its last charge; after that it is seeded again from the store (the truth). */
const SPEND_TTL_MS = 24 * 60 * 60 * 1000;

export interface FleetBudgetOptions {
  readonly runId: string;
  readonly capUsd: number;
  /** What the store says the run spent before (`Store.runSpend`): seeds the shared spend if no worker has yet. */
  readonly spentBeforeUsd: number;
  /** Namespace of the keys (default `assay:`), as for the shared limits. */
  readonly prefix?: string;
}

/** Where a run's shared spend lives: `<prefix>spend:<run id>`, in USD as Redis's float text. */
export function spendKey(prefix: string, runId: string): string {
  return `${prefix}spend:${runId}`;
}

/**
 * `--max-cost` over every worker of one run: the run's spend is one Redis number that every
 * worker adds its calls to (INCRBYFLOAT, atomic), seeded once from the store (`SET NX`, so of two
 * workers starting together only one seeds, and no charge can come before the seed: each worker
 * seeds before it charges). Before a sample starts the worker reads the shared spend
 * (`refresh`); once it has reached the cap no new sample starts anywhere. Samples in flight
 * finish, so the total passes the cap by at most what one sample per worker costs — the promise
 * of `Budget`, with every worker of the fleet counted. While Redis is unreachable, reads wait for
 * it (the cap is never dropped) and charges are queued and sent once it is back.
 */
export class FleetBudget implements RunBudget {
  readonly capUsd: number;
  private readonly key: string;
  /**
   * The shared spend as Redis last told it, and what this process charged that Redis has not
   * acknowledged yet (one connection answers in order, so a reply counts every charge sent before it).
   */
  private shared: number;
  private unsent = 0;
  private why: string | undefined;
  private readonly pending = new Set<Promise<unknown>>();

  private constructor(
    private readonly redis: Redis,
    options: FleetBudgetOptions,
    sharedNow: number,
  ) {
    this.capUsd = options.capUsd;
    this.key = spendKey(options.prefix ?? 'assay:', options.runId);
    this.shared = sharedNow;
    this.check();
  }

  /** Seeds the shared spend (only if no worker has) and reads it. */
  static async open(redis: Redis, options: FleetBudgetOptions): Promise<FleetBudget> {
    const key = spendKey(options.prefix ?? 'assay:', options.runId);
    const [, [, now]] = (await redis.multi().set(key, String(options.spentBeforeUsd), 'PX', SPEND_TTL_MS, 'NX').get(key).exec()) as [[Error | null, unknown], [Error | null, string | null]];
    return new FleetBudget(redis, options, Number(now ?? options.spentBeforeUsd));
  }

  get spentUsd(): number {
    return this.shared + this.unsent;
  }

  get stopReason(): string | undefined {
    return this.why;
  }

  charge(calls: readonly CallRecord[]): void {
    let cost = 0;
    for (const call of calls) {
      if (call.costUsd !== null) cost += call.costUsd;
      else if (call.output !== null && this.why === undefined) this.why = `a call of ${call.actor ?? call.modelId} came back without token counts, so its cost is unknown and --max-cost cannot be kept`;
    }
    if (cost > 0) {
      this.unsent += cost;
      const sent = this.redis
        .multi()
        .incrbyfloat(this.key, cost)
        .pexpire(this.key, SPEND_TTL_MS)
        .exec()
        .then((replies) => {
          this.unsent -= cost;
          const total = Number(replies?.[0]?.[1]);
          if (Number.isFinite(total)) this.shared = Math.max(this.shared, total);
          this.check();
        });
      const tracked = sent.catch(() => undefined).finally(() => this.pending.delete(tracked));
      this.pending.add(tracked);
    }
    this.check();
  }

  async refresh(signal?: AbortSignal): Promise<void> {
    const read = this.redis.get(this.key);
    const value = await abortable(read, signal);
    if (value !== null && Number.isFinite(Number(value))) this.shared = Math.max(this.shared, Number(value));
    this.check();
  }

  async settle(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  private check(): void {
    // The same nano-dollar of slack as Budget, for float sums a hair under the cap.
    if (this.why === undefined && this.spentUsd >= this.capUsd - 1e-9) this.why = `the fleet spent $${formatUsd(this.spentUsd)} of --max-cost $${formatUsd(this.capUsd)}`;
  }
}

/** The `BudgetFactory` of a fleet: each run's spend in `redis`, under `prefix`. */
export function fleetBudgets(redis: Redis, options: { readonly prefix?: string } = {}): BudgetFactory {
  return (run) => FleetBudget.open(redis, { ...run, ...(options.prefix !== undefined ? { prefix: options.prefix } : {}) });
}

