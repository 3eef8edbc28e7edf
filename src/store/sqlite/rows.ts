import type { GenerateResult, ReferenceHints, Role, Score, ToolSpec, Transcript, Usage } from '../../core/index.js';
import type { TaskOptions } from '../../core/index.js';
import type { CallError, CallRecord, JudgeConfig, ResultRecord, ReviewRecord, RunRecord, RunStatus, StoredSample } from '../records.js';
import { fromJson, nullableFromJson, optionalFromJson } from './json.js';
import { inputFromJson, SAMPLE_INPUT_REF } from './sample-input.js';

/** Row shapes exactly as SQLite returns them (see migrations.ts), and their conversion to records. */

export interface RunRow {
  id: string;
  task: string;
  task_version: string;
  status: string;
  created_at: string;
  updated_at: string;
  models: string;
  settings: string;
  seed: number;
  options: string;
  dataset_checksums: string;
  prompt_version: string;
  toolkit_version: string;
  engine: string;
  judge: string | null;
  sample_count: number | null;
  user_model: string | null;
  metrics_facts: string | null;
}

export interface ReviewRow {
  run_id: string;
  sample_id: string;
  model_id: string;
  verdict: number;
  note: string;
  source: string;
  reviewed_at: string;
}

export interface SampleRow {
  sample_id: string;
  idx: number;
  input: string;
  tools: string | null;
  target: string | null;
  metadata: string;
  hints: string | null;
}

export interface CallRow {
  id: number;
  run_id: string;
  sample_id: string;
  model_id: string;
  role: string;
  attempt: number;
  cache_key: string | null;
  request: string | null;
  output: string | null;
  error: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_usd: number | null;
  latency_ms: number;
  started_at: string;
  actor: string | null;
  step: string | null;
  /** The sample's input, joined in: a stored request refers to it instead of repeating it. */
  sample_input?: string;
}

export interface ResultRow {
  run_id: string;
  sample_id: string;
  model_id: string;
  status: string;
  output: string | null;
  score: string | null;
  error: string | null;
  cached: number;
  attempts: number;
  latency_ms: number;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_usd: number | null;
  finished_at: string;
  transcript: string | null;
}

/** A `runs` row as a RunRecord. */
/** One role and answering model's totals over a run's calls (`SQL.selectRunSpend`). */
export interface SpendRow {
  readonly role: string;
  readonly model: string;
  readonly calls: number;
  readonly failed_calls: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly usd: number;
  readonly unpriced: number;
}

export function runFromRow(row: RunRow): RunRecord {
  return {
    id: row.id,
    task: row.task,
    taskVersion: row.task_version,
    status: row.status as RunStatus,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    models: fromJson<string[]>(row.models),
    settings: fromJson<RunRecord['settings']>(row.settings),
    seed: row.seed,
    options: fromJson<TaskOptions>(row.options),
    datasetChecksums: fromJson<Record<string, string>>(row.dataset_checksums),
    promptVersion: row.prompt_version,
    toolkitVersion: row.toolkit_version,
    engine: fromJson<RunRecord['engine']>(row.engine),
    judge: row.judge === null ? null : fromJson<JudgeConfig>(row.judge),
    ...(row.sample_count !== null ? { sampleCount: row.sample_count } : {}),
    ...(row.user_model !== null ? { userModel: row.user_model } : {}),
    ...(row.metrics_facts !== null ? { metricsFacts: fromJson<unknown>(row.metrics_facts) } : {}),
  };
}

export function reviewFromRow(row: ReviewRow): ReviewRecord {
  return {
    runId: row.run_id,
    sampleId: row.sample_id,
    modelId: row.model_id,
    verdict: row.verdict === 1,
    note: row.note,
    source: row.source,
    reviewedAt: row.reviewed_at,
  };
}

/** Parameters of `SQL.insertRun`, in column order (JSON columns stringified once). */
export function runToParams(run: RunRecord): unknown[] {
  return [
    run.id,
    run.task,
    run.taskVersion,
    run.status,
    run.createdAt,
    run.updatedAt,
    JSON.stringify(run.models),
    JSON.stringify(run.settings),
    run.seed,
    JSON.stringify(run.options),
    JSON.stringify(run.datasetChecksums),
    run.promptVersion,
    run.toolkitVersion,
    JSON.stringify(run.engine),
    run.judge === null ? null : JSON.stringify(run.judge),
    run.sampleCount ?? null,
    run.userModel ?? null,
    run.metricsFacts === undefined ? null : JSON.stringify(run.metricsFacts),
  ];
}

/** A `samples` row as a StoredSample, its input joined back from the run's `texts`; absent tools/hints stay absent. */
export function sampleFromRow(row: SampleRow, texts: readonly string[]): StoredSample {
  const tools = optionalFromJson<ToolSpec[]>(row.tools);
  const hints = optionalFromJson<ReferenceHints>(row.hints);
  return {
    id: row.sample_id,
    index: row.idx,
    input: inputFromJson(row.input, texts, `sample ${row.sample_id}`),
    ...(tools !== undefined ? { tools } : {}),
    target: optionalFromJson<unknown>(row.target),
    metadata: fromJson<Record<string, unknown>>(row.metadata),
    ...(hints !== undefined ? { hints } : {}),
  };
}

/** Usage from two nullable columns, leaving out the counts that were not reported. */
function usageFromColumns(inputTokens: number | null, outputTokens: number | null): Usage {
  return {
    ...(inputTokens !== null ? { inputTokens } : {}),
    ...(outputTokens !== null ? { outputTokens } : {}),
  };
}

/** Puts the sample's messages back into a stored request that refers to them (see `SAMPLE_INPUT_REF`). */
function expandSampleInput(request: unknown, row: CallRow, texts: readonly string[]): unknown {
  if (!request || typeof request !== 'object' || (request as { messages?: unknown }).messages !== SAMPLE_INPUT_REF || row.sample_input === undefined) return request;
  return { ...request, messages: inputFromJson(row.sample_input, texts, `sample ${row.sample_id}`) };
}

/** A `calls` row as a CallRecord; `texts` are its run's shared texts (for a request that refers to the sample's input). */
export function callFromRow(row: CallRow, texts: readonly string[]): CallRecord {
  return {
    runId: row.run_id,
    sampleId: row.sample_id,
    modelId: row.model_id,
    role: row.role as Role,
    ...(row.actor !== null ? { actor: row.actor } : {}),
    ...(row.step !== null && row.step !== undefined ? { step: row.step } : {}),
    attempt: row.attempt,
    cacheKey: row.cache_key,
    request: expandSampleInput(optionalFromJson<unknown>(row.request), row, texts),
    output: nullableFromJson<GenerateResult>(row.output),
    error: nullableFromJson<CallError>(row.error),
    usage: usageFromColumns(row.input_tokens, row.output_tokens),
    costUsd: row.cost_usd,
    latencyMs: row.latency_ms,
    startedAt: row.started_at,
  };
}

/** A `results` row as a ResultRecord. */
export function resultFromRow(row: ResultRow): ResultRecord {
  return {
    runId: row.run_id,
    sampleId: row.sample_id,
    modelId: row.model_id,
    status: row.status as ResultRecord['status'],
    output: nullableFromJson<GenerateResult>(row.output),
    score: nullableFromJson<Score>(row.score),
    error: nullableFromJson<CallError>(row.error),
    cached: row.cached !== 0,
    attempts: row.attempts,
    latencyMs: row.latency_ms,
    usage: usageFromColumns(row.input_tokens, row.output_tokens),
    costUsd: row.cost_usd,
    finishedAt: row.finished_at,
    ...(row.transcript !== null && row.transcript !== undefined ? { transcript: fromJson<Transcript>(row.transcript) } : {}),
  };
}
