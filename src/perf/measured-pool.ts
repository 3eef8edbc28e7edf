/** What one measured pool of calls cost: its wall time, CPU and event-loop busy share, and how many calls failed. */
export interface PoolFigures {
  readonly errors: number;
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly eventLoopBusy: number;
}

/**
 * Runs `one(0) … one(total - 1)` with `concurrency` in flight (each worker takes the next index,
 * as the runner's per-model pools do) and measures the whole: the floor bench compares layers by
 * these figures, so they are taken the same way for each.
 */
export async function measurePool(total: number, concurrency: number, one: (index: number) => Promise<boolean>): Promise<PoolFigures> {
  const cpuBefore = process.cpuUsage();
  const eluBefore = performance.eventLoopUtilization();
  const started = performance.now();
  let next = 0;
  let errors = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) if (!(await one(next++))) errors++;
    }),
  );
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return { errors, wallMs, cpuMs: (cpu.user + cpu.system) / 1000, eventLoopBusy: performance.eventLoopUtilization(eluBefore).utilization };
}
