import type { RunRecord } from '../../store/records.js';
import { readRunState, type RunState } from '../../store/run-state.js';
import { totalSpend } from '../../store/spend.js';
import type { Store } from '../../store/store.js';
import type { RunProgress as RunProgressShape } from '../report-shapes.js';

/** Where a run stands now (report-shapes.ts), its status as `assay runs` says it. */
export type RunProgress = RunProgressShape<RunState>;

export async function runProgress(store: Store, run: RunRecord): Promise<RunProgress> {
  const [{ state }, counts, spend] = await Promise.all([readRunState(store, run), store.resultCounts(run.id), store.runSpend(run.id)]);
  const byModel = new Map(counts.map((c) => [c.model, c]));
  return {
    run: run.id,
    task: run.task,
    models: run.models,
    status: state,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    samples: run.sampleCount ?? null,
    progress: run.models.map((model) => ({ model, done: byModel.get(model)?.done ?? 0, errors: byModel.get(model)?.errors ?? 0 })),
    cost: totalSpend(spend),
  };
}

/** Every stored run's progress, newest first (as `assay runs` lists them). */
export async function listRunProgress(store: Store): Promise<RunProgress[]> {
  const runs = await store.listRuns();
  const out: RunProgress[] = [];
  // One run at a time: a store with hundreds of runs is read in as many small queries, never all at once.
  for (const run of runs) out.push(await runProgress(store, run));
  return out;
}
