import type { Metrics, MetricsContext, ScoredSample, Task } from '../benchmarks/task.js';
import { isManualAnalysis, type Role, type Sample } from '../core/index.js';
import type { FailFastStop, ResultRecord, ReviewRecord, RoleSpend, RunRecord } from '../store/records.js';
import type { RunState } from '../store/run-state.js';
import type { Store } from '../store/store.js';
import type { ModifiedDataFile } from '../datasets/pinned.js';
import { recordedModifiedData } from './data-check.js';
import { describeStop, recordedStops } from './fail-fast.js';
import { judgeMetadataOf } from './judge-metadata.js';

export interface ModelCounts {
  readonly samples: number;
  readonly done: number;
  readonly errors: number;
  /** Samples not attempted yet (an interrupted run). */
  readonly pending: number;
  /** Scores without a verdict, those left to manual analysis included (as stored: a null value). */
  readonly no_verdict: number;
  /** Of `no_verdict`, the answers a paper-faithful reading left to manual analysis (`isManualAnalysis`). */
  readonly manual: number;
  readonly cached: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
  /** null when any call's cost is unknown. */
  readonly cost_usd: number | null;
  readonly errors_by_kind: Readonly<Record<string, number>>;
}

/** What the judge did for one model under test (present when the run has a judge). */
export interface JudgeCounts {
  readonly model: string;
  /** Items the judge graded (the others were final without it, e.g. exact matches). */
  readonly judged: number;
  /** Of those, items whose judgment is no verdict (unparseable after retries, failed calls, tied votes). */
  readonly no_verdict: number;
  readonly calls: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cost_usd: number | null;
}

/** Metrics with human reviews applied in place of the judge's verdicts (present when the run has reviews). */
export interface ReviewedSummary {
  readonly metrics: Metrics;
  /** Items with a review. */
  readonly reviewed: number;
  /** Reviews whose verdict differs from the stored score's (a no verdict made pass or fail counts). */
  readonly changed: number;
}

export interface ModelSummary {
  /** Judge-only (or scorer-only) metrics. */
  readonly metrics: Metrics;
  readonly counts: ModelCounts;
  readonly judge?: JudgeCounts;
  readonly reviewed?: ReviewedSummary;
}

/** A model stopped early (`FailFastStop`) with the one line that says why and what to do. */
export interface StoppedModel extends FailFastStop {
  readonly advice: string;
}

/** What one role's calls, answered by one model, add up to over the run (every attempt a call). */
export interface RoleCost {
  readonly role: Role;
  readonly model: string;
  readonly calls: number;
  readonly failed_calls: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
  /** null when a successful call's cost is unknown (a paid model without a price). */
  readonly cost_usd: number | null;
}

/** The `--json` summary: one object, stable keys. */
export interface RunSummary {
  readonly run: string;
  readonly task: string;
  /** How the run stands; `stale` only from `assay show` (stored as running, its process gone: see `RunState`). */
  readonly status: RunState;
  /** Pinned data files the run read with other bytes (`--allow-modified-data`); absent on the pinned data. */
  readonly modified_data?: readonly ModifiedDataFile[];
  /**
   * Models the run's last session stopped because their errors repeat for every sample (why the
   * run is interrupted), each with `advice`: the provider's message and what to fix before
   * `assay resume`. Absent when there were none.
   */
  readonly fail_fast?: readonly StoppedModel[];
  readonly models: Readonly<Record<string, ModelSummary>>;
  /** The run's calls by role (model under test, simulated user, judge) and answering model, from the stored calls. */
  readonly cost_by_role: readonly RoleCost[];
}

/** What the summary reads of a sample's result (a stored `ResultRecord` has all of it). */
export type SummarizedResult = Pick<ResultRecord, 'sampleId' | 'status' | 'score' | 'error' | 'cached' | 'usage' | 'costUsd'>;

/**
 * Computes metrics and counts from what the store holds: no model is called, and the task is not
 * prepared again (its metrics read the stored samples, scores, options and facts). `samples` are
 * the run's samples in order (those stored at least: a sample is stored before its call, so every
 * result has its sample). `known` gives each model's results by sample id when the caller has
 * every one of them already (a run that has just finished in one session saved exactly these):
 * the store is then not read back.
 */
export async function summarizeRun(
  store: Store,
  run: RunRecord,
  task: Task,
  samples: readonly Sample[],
  known?: ReadonlyMap<string, ReadonlyMap<string, SummarizedResult>>,
): Promise<RunSummary> {
  const models: Record<string, ModelSummary> = {};
  const reviews = await store.reviews(run.id);
  const context: MetricsContext = { options: run.options, facts: run.metricsFacts };
  // A run stopped before storing all its samples: the rest are pending, and known by count.
  const sampleCount = Math.max(run.sampleCount ?? 0, samples.length);
  for (const modelId of run.models) {
    const results: ReadonlyMap<string, SummarizedResult> =
      known?.get(modelId) ?? new Map((await store.results(run.id, modelId, { outputs: false })).map((r) => [r.sampleId, r]));
    let done = 0, errors = 0, noVerdict = 0, manual = 0, cached = 0, inputTokens = 0, outputTokens = 0;
    let cost: number | null = 0;
    const errorsByKind: Record<string, number> = {};
    const rows: ScoredSample[] = [];
    for (const sample of samples) {
      const result = results.get(sample.id);
      if (!result) continue;
      if (result.status === 'done' && result.score) {
        done++;
        if (result.score.value === null) noVerdict++;
        if (isManualAnalysis(result.score)) manual++;
        rows.push({ sample, score: result.score });
      } else {
        errors++;
        // As `ScoredSample` says: a sample that ended in error has no score. Metrics that count
        // errors apart (judged summaries, groundedness) see it; the others leave it out.
        rows.push({ sample, score: undefined });
        const kind = result.error?.kind ?? 'unknown';
        errorsByKind[kind] = (errorsByKind[kind] ?? 0) + 1;
      }
      if (result.cached) cached++;
      inputTokens += result.usage.inputTokens ?? 0;
      outputTokens += result.usage.outputTokens ?? 0;
      cost = cost === null || result.costUsd === null ? null : cost + result.costUsd;
    }
    const attempted = done + errors;
    const judge = run.judge ? judgeCounts(run.judge.model, rows) : undefined;
    const agreement: Metrics = run.judge && run.judge.repeats > 1 ? { judge_agreement: meanAgreement(rows) } : {};
    const modelReviews = reviews.filter((r) => r.modelId === modelId);
    models[modelId] = {
      ...(judge ? { judge } : {}),
      ...(modelReviews.length > 0 ? { reviewed: reviewedSummary(task, context, rows, modelReviews) } : {}),
      metrics: { ...task.metrics(rows, context), ...agreement },
      counts: {
        samples: sampleCount,
        done,
        errors,
        pending: sampleCount - attempted,
        no_verdict: noVerdict,
        manual,
        cached,
        input_tokens: inputTokens,
        output_tokens: outputTokens,
        cost_usd: attempted === 0 ? 0 : cost,
        errors_by_kind: errorsByKind,
      },
    };
  }
  const modified = recordedModifiedData(run);
  const stopped = recordedStops(run).map((stop): StoppedModel => ({ ...stop, advice: describeStop(stop, run.id) }));
  const costByRole = (await store.runSpend(run.id)).map(roleCost);
  return {
    run: run.id,
    task: run.task,
    status: run.status,
    ...(modified.length > 0 ? { modified_data: modified } : {}),
    ...(stopped.length > 0 ? { fail_fast: stopped } : {}),
    models,
    cost_by_role: costByRole,
  };
}

function roleCost(spend: RoleSpend): RoleCost {
  return {
    role: spend.role,
    model: spend.model,
    calls: spend.calls,
    failed_calls: spend.failedCalls,
    input_tokens: spend.inputTokens,
    output_tokens: spend.outputTokens,
    cost_usd: spend.unpriced > 0 ? null : spend.usd,
  };
}

function judgeCounts(model: string, rows: readonly ScoredSample[]): JudgeCounts {
  let judged = 0, noVerdict = 0, calls = 0, inputTokens = 0, outputTokens = 0;
  let cost: number | null = 0;
  for (const { score } of rows) {
    const judge = judgeMetadataOf(score);
    if (!judge) continue;
    judged++;
    if (score?.value === null) noVerdict++;
    calls += judge.calls;
    inputTokens += judge.inputTokens;
    outputTokens += judge.outputTokens;
    cost = cost === null || judge.costUsd === null ? null : cost + judge.costUsd;
  }
  return { model, judged, no_verdict: noVerdict, calls, input_tokens: inputTokens, output_tokens: outputTokens, cost_usd: cost };
}

/** Mean agreement among repeats over the judged items; null when none was judged. */
function meanAgreement(rows: readonly ScoredSample[]): number | null {
  const values = rows.map((r) => judgeMetadataOf(r.score)?.agreement).filter((a): a is number => a !== undefined);
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
}

/** The metrics again with each reviewed item's verdict in place of its score's value. */
function reviewedSummary(task: Task, context: MetricsContext, rows: readonly ScoredSample[], reviews: readonly ReviewRecord[]): ReviewedSummary {
  const bySample = new Map(reviews.map((r) => [r.sampleId, r]));
  let changed = 0;
  const reviewedRows = rows.map((row) => {
    const review = bySample.get(row.sample.id);
    if (!review || !row.score) return row;
    if (row.score.value !== review.verdict) changed++;
    const explanation = `reviewed: ${review.verdict ? 'pass' : 'fail'}${review.note ? ` (${review.note})` : ''}`;
    return { sample: row.sample, score: { ...row.score, value: review.verdict, explanation } };
  });
  return { metrics: task.metrics(reviewedRows, context), reviewed: reviews.length, changed };
}
