import type { RoleSpend } from './records.js';

/** What a run's calls cost in all, over every role: USD of the priced calls, and how many successful calls have no price. */
export function totalSpend(rows: readonly RoleSpend[]): { readonly usd: number; readonly unpriced: number } {
  let usd = 0;
  let unpriced = 0;
  for (const row of rows) {
    usd += row.usd;
    unpriced += row.unpriced;
  }
  return { usd, unpriced };
}
