import type { GateResult } from './gate-result.js';

/** How many gates passed, failed, were inconclusive: `4 passed, 1 failed, 1 inconclusive`. */
export function outcomeCounts(results: readonly GateResult[]): string {
  const count = (outcome: GateResult['outcome']) => results.filter((r) => r.outcome === outcome).length;
  return `${count('pass')} passed, ${count('fail')} failed, ${count('inconclusive')} inconclusive`;
}

/** The interval's relation to the threshold in a table cell. */
export function relationCell(result: GateResult): string {
  return result.relation === 'none' ? '' : result.relation;
}
