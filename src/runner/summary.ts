import type { Metrics, PreparedTask } from '../benchmarks/task.js';
import type { Sample } from '../core/index.js';
import type { RunRecord } from '../store/records.js';
import type { Store } from '../store/store.js';

export interface ModelCounts {
  readonly samples: number;
  readonly done: number;
  readonly errors: number;
  /** Samples not attempted yet (an interrupted run). */
  readonly pending: number;
  readonly no_verdict: number;
  readonly cached: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
  /** null when any call's cost is unknown. */
  readonly cost_usd: number | null;
  readonly errors_by_kind: Readonly<Record<string, number>>;
}

/** The `--json` summary: one object, stable keys. */
export interface RunSummary {
  readonly run: string;
  readonly task: string;
  readonly status: RunRecord['status'];
  readonly models: Readonly<Record<string, { readonly metrics: Metrics; readonly counts: ModelCounts }>>;
}

/** Computes metrics and counts from what the store holds: no model is called. */
export async function summarizeRun(store: Store, run: RunRecord, prepared: PreparedTask, samples: readonly Sample[]): Promise<RunSummary> {
  const models: Record<string, { metrics: Metrics; counts: ModelCounts }> = {};
  for (const modelId of run.models) {
    const results = new Map((await store.results(run.id, modelId, { outputs: false })).map((r) => [r.sampleId, r]));
    let done = 0, errors = 0, noVerdict = 0, cached = 0, inputTokens = 0, outputTokens = 0;
    let cost: number | null = 0;
    const errorsByKind: Record<string, number> = {};
    const rows = [];
    for (const sample of samples) {
      const result = results.get(sample.id);
      if (!result) continue;
      if (result.status === 'done' && result.score) {
        done++;
        if (result.score.value === null) noVerdict++;
        rows.push({ sample, score: result.score });
      } else {
        errors++;
        const kind = result.error?.kind ?? 'unknown';
        errorsByKind[kind] = (errorsByKind[kind] ?? 0) + 1;
      }
      if (result.cached) cached++;
      inputTokens += result.usage.inputTokens ?? 0;
      outputTokens += result.usage.outputTokens ?? 0;
      cost = cost === null || result.costUsd === null ? null : cost + result.costUsd;
    }
    const attempted = done + errors;
    models[modelId] = {
      metrics: prepared.metrics(rows),
      counts: {
        samples: samples.length,
        done,
        errors,
        pending: samples.length - attempted,
        no_verdict: noVerdict,
        cached,
        input_tokens: inputTokens,
        output_tokens: outputTokens,
        cost_usd: attempted === 0 ? 0 : cost,
        errors_by_kind: errorsByKind,
      },
    };
  }
  return { run: run.id, task: run.task, status: run.status, models };
}
