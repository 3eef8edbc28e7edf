import { setTimeout as sleep } from 'node:timers/promises';
import type { ProgressEvent } from '../runner/execute.js';
import type { RunRecord } from '../store/records.js';
import type { Store } from '../store/store.js';

/**
 * Follows a queued run from the store alone (any machine reaching it can): its progress until
 * every unit has a result, then sets it `finished` (see `accountUnit` for the workers' side).
 * Stops early when the run ends otherwise (a worker's spending cap marked it interrupted) or on
 * `stop` (the run goes on in the workers). Returns the run's status as it left it.
 */
export async function followRun(
  store: Store,
  run: RunRecord,
  options: { readonly onProgress?: (event: ProgressEvent) => void; readonly stop?: AbortSignal; readonly pollMs?: number } = {},
): Promise<'finished' | 'interrupted' | 'failed' | 'detached'> {
  const samples = run.sampleCount ?? (await store.loadSamples(run.id)).length;
  const total = samples * run.models.length * (run.repeats ?? 1);
  for (;;) {
    // Counts, not rows: one cheap read a poll, however large the run.
    let finished = 0;
    let errors = 0;
    for (const count of await store.resultCounts(run.id)) {
      finished += count.done + count.errors;
      errors += count.errors;
    }
    options.onProgress?.({ modelId: '', finished, errors, total, skipped: 0 });
    if (finished >= total) {
      await store.setRunStatus(run.id, 'finished');
      return 'finished';
    }
    const status = (await store.getRun(run.id))?.status;
    if (status === 'interrupted' || status === 'failed') return status;
    if (options.stop?.aborted) return 'detached';
    await sleep(options.pollMs ?? 1_000, undefined, options.stop ? { signal: options.stop } : {}).catch(() => undefined);
  }
}
