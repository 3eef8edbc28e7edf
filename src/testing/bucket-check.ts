/**
 * The largest excess over a token bucket's promise seen in request arrival times: for every pair
 * of requests i ≤ j (every window that starts and ends on a request, which is where a window's
 * count peaks), count − (burst + rate × (span + lateness)). ≤ 0 means the limit was kept.
 */
export function worstExcess(times: readonly number[], burst: number, perMs: number, latenessMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let worst = -Infinity;
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i; j < sorted.length; j++) {
      const span = (sorted[j] as number) - (sorted[i] as number);
      worst = Math.max(worst, j - i + 1 - (burst + perMs * (span + latenessMs)));
    }
  }
  return worst;
}
