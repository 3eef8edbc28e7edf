import type { RunRecord } from '../../store/records.js';
import { readRunState, type RunState } from '../../store/run-state.js';
import { totalSpend } from '../../store/spend.js';
import type { Store } from '../../store/store.js';

/**
 * Where a run stands now, from counts alone (no sample, result or output row is read): what the
 * viewer's run list shows and what an open page polls while the run is in progress.
 */
export interface RunProgress {
  readonly run: string;
  readonly task: string;
  readonly models: readonly string[];
  /** As `assay runs` says it: a live lease is `running`, a dead one `stale`. */
  readonly status: RunState;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Samples per model; null for a run made before runs recorded their count (all its samples were stored at once). */
  readonly samples: number | null;
  /** Results per model under test, in the run's model order (0 for a model with none yet). */
  readonly progress: readonly { readonly model: string; readonly done: number; readonly errors: number }[];
  /** Every role's calls so far: USD of the priced ones, and how many successful calls have no price. */
  readonly cost: { readonly usd: number; readonly unpriced: number };
}

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
