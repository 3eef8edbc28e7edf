import type { CallRecord } from '../store/records.js';

/**
 * What the runner asks of a run's spending cap: `Budget` in one process, `FleetBudget` (the spend
 * kept in Redis) when several workers share one run.
 */
export interface RunBudget {
  readonly capUsd: number;
  /** The run's spend as this process knows it. */
  readonly spentUsd: number;
  /** Why no new sample may start, or undefined while the budget lasts. */
  readonly stopReason: string | undefined;
  /** Counts what calls cost, as soon as they are made (never waits). */
  charge(calls: readonly CallRecord[]): void;
  /** Learns what other processes spent, before a sample starts; absent where nobody else spends. */
  refresh?(signal?: AbortSignal): Promise<void>;
  /** Waits for charges still on their way to where the spend is kept. */
  settle?(): Promise<void>;
}

/** Makes a run's budget from its cap and what the store says it spent before (a fleet seeds its shared spend with it once). */
export type BudgetFactory = (run: { readonly runId: string; readonly capUsd: number; readonly spentBeforeUsd: number }) => Promise<RunBudget>;

/**
 * A run's spending cap (`--max-cost`), in USD over every call of the run: models under test and
 * judge, this session and the earlier ones. Once the spend reaches the cap no new sample starts;
 * samples in flight finish (their calls are already paid for, and cutting them would waste that),
 * so the total can pass the cap by what those samples cost. The run is then `interrupted`, and a
 * resume with a higher cap goes on.
 */
export class Budget implements RunBudget {
  private spent: number;
  private why: string | undefined;

  /** `spentBefore`: what earlier sessions of the run spent (see `Store.runSpend`). */
  constructor(
    readonly capUsd: number,
    spentBefore = 0,
  ) {
    this.spent = spentBefore;
    this.check();
  }

  get spentUsd(): number {
    return this.spent;
  }

  /** Why no new sample may start, or undefined while the budget lasts. */
  get stopReason(): string | undefined {
    return this.why;
  }

  /** Counts what a finished sample's calls cost. A paid call whose cost is unknown stops the run: the cap could not be kept. */
  charge(calls: readonly CallRecord[]): void {
    for (const call of calls) {
      if (call.costUsd !== null) this.spent += call.costUsd;
      // A failed attempt has no output and no cost (nothing was billed); a successful one without a
      // cost came back without token counts.
      else if (call.output !== null && this.why === undefined) this.why = `a call of ${call.actor ?? call.modelId} came back without token counts, so its cost is unknown and --max-cost cannot be kept`;
    }
    this.check();
  }

  private check(): void {
    // A nano-dollar of slack, so float sums that land a hair under the cap (0.1 + 0.2 ≠ 0.3) still reach it.
    if (this.why === undefined && this.spent >= this.capUsd - 1e-9) this.why = `spent $${formatUsd(this.spent)} of --max-cost $${formatUsd(this.capUsd)}`;
  }
}

/** Enough digits for a cent-fraction budget, without float noise. */
export function formatUsd(usd: number): string {
  return usd >= 1 ? usd.toFixed(2) : usd.toPrecision(3).replace(/\.?0+$/, '');
}
