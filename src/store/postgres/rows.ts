import type { GenerateResult, ReferenceHints, Role, Score, TaskOptions, ToolSpec, Transcript, Usage } from '../../core/index.js';
import type { CallError, CallRecord, JudgeConfig, LeaseHolder, ResultRecord, ReviewRecord, RunLease, RunRecord, RunStatus, StoredSample } from '../records.js';

/**
 * Row shapes as node-postgres returns them from this store's pool (`json` columns come as their
 * text, see `postgres-store.ts`; `timestamptz` as Date; `bigint` as a decimal string), and
 * their conversion to records. JSON conventions as in the SQLite store: SQL NULL is absent
 * (undefined) for optional fields and null for nullable ones; the text `null` is null.
 */

export interface RunRow {
  id: string;
  task: string;
  task_version: string;
  status: string;
  created_at: Date;
  updated_at: Date;
  models: string[];
  settings: string;
  seed: string;
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
  run_id: string;
  sample_id: string;
  model_id: string;
  role: string;
  actor: string | null;
  step: string | null;
  attempt: number;
  cache_key: string | null;
  request: string | null;
  output: string | null;
  error: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_usd: number | null;
  latency_ms: number;
  started_at: Date;
  /** The sample's input, joined in when the call's messages were it (`messages_from_sample`). */
  sample_input: string | null;
}

export interface ResultRow {
  run_id: string;
  sample_id: string;
  model_id: string;
  status: string;
  output: string | null;
  score: string | null;
  error: string | null;
  cached: boolean;
  attempts: number;
  latency_ms: number;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_usd: number | null;
  finished_at: Date;
  transcript: string | null;
}

export interface ReviewRow {
  run_id: string;
  sample_id: string;
  model_id: string;
  verdict: boolean;
  note: string;
  source: string;
  reviewed_at: Date;
}

export interface LeaseRow {
  run_id: string;
  holder_id: string;
  pid: number;
  host: string;
  acquired_at: Date;
  heartbeat_at: Date;
  expires_at: Date;
}

/** null/undefined → SQL NULL, anything else → JSON text (nullable fields: output, error, score). */
export const nullableToJson = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));
/** undefined → SQL NULL, anything else (null included) → JSON text (optional fields: tools, target, hints, request). */
export const optionalToJson = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));
const parse = <T>(text: string): T => JSON.parse(text) as T;
const nullable = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));
const optional = <T>(text: string | null): T | undefined => (text === null ? undefined : (JSON.parse(text) as T));
const iso = (time: Date): string => time.toISOString();

/** Parameters of the run insert, in column order. */
export function runToParams(run: RunRecord): unknown[] {
  return [
    run.id,
    run.task,
    run.taskVersion,
    run.status,
    run.createdAt,
    run.updatedAt,
    run.models,
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
    optionalToJson(run.metricsFacts),
  ];
}

export function runFromRow(row: RunRow): RunRecord {
  return {
    id: row.id,
    task: row.task,
    taskVersion: row.task_version,
    status: row.status as RunStatus,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    models: row.models,
    settings: parse<RunRecord['settings']>(row.settings),
    seed: Number(row.seed),
    options: parse<TaskOptions>(row.options),
    datasetChecksums: parse<Record<string, string>>(row.dataset_checksums),
    promptVersion: row.prompt_version,
    toolkitVersion: row.toolkit_version,
    engine: parse<RunRecord['engine']>(row.engine),
    judge: nullable<JudgeConfig>(row.judge),
    ...(row.sample_count !== null ? { sampleCount: row.sample_count } : {}),
    ...(row.user_model !== null ? { userModel: row.user_model } : {}),
    ...(row.metrics_facts !== null ? { metricsFacts: parse<unknown>(row.metrics_facts) } : {}),
  };
}

export function sampleFromRow(row: SampleRow): StoredSample {
  const tools = optional<ToolSpec[]>(row.tools);
  const hints = optional<ReferenceHints>(row.hints);
  return {
    id: row.sample_id,
    index: row.idx,
    input: parse(row.input),
    ...(tools !== undefined ? { tools } : {}),
    target: optional<unknown>(row.target),
    metadata: parse<Record<string, unknown>>(row.metadata),
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

export function callFromRow(row: CallRow): CallRecord {
  const request = optional<unknown>(row.request);
  return {
    runId: row.run_id,
    sampleId: row.sample_id,
    modelId: row.model_id,
    role: row.role as Role,
    ...(row.actor !== null ? { actor: row.actor } : {}),
    ...(row.step !== null ? { step: row.step } : {}),
    attempt: row.attempt,
    cacheKey: row.cache_key,
    request: row.sample_input === null ? request : { ...(request as object), messages: parse<unknown>(row.sample_input) },
    output: nullable<GenerateResult>(row.output),
    error: nullable<CallError>(row.error),
    usage: usageFromColumns(row.input_tokens, row.output_tokens),
    costUsd: row.cost_usd,
    latencyMs: row.latency_ms,
    startedAt: iso(row.started_at),
  };
}

export function resultFromRow(row: ResultRow): ResultRecord {
  return {
    runId: row.run_id,
    sampleId: row.sample_id,
    modelId: row.model_id,
    status: row.status as ResultRecord['status'],
    output: nullable<GenerateResult>(row.output),
    score: nullable<Score>(row.score),
    error: nullable<CallError>(row.error),
    cached: row.cached,
    attempts: row.attempts,
    latencyMs: row.latency_ms,
    usage: usageFromColumns(row.input_tokens, row.output_tokens),
    costUsd: row.cost_usd,
    finishedAt: iso(row.finished_at),
    ...(row.transcript !== null ? { transcript: parse<Transcript>(row.transcript) } : {}),
  };
}

export function reviewFromRow(row: ReviewRow): ReviewRecord {
  return {
    runId: row.run_id,
    sampleId: row.sample_id,
    modelId: row.model_id,
    verdict: row.verdict,
    note: row.note,
    source: row.source,
    reviewedAt: iso(row.reviewed_at),
  };
}

export function leaseFromRow(row: LeaseRow): RunLease {
  const holder: LeaseHolder = { id: row.holder_id, pid: row.pid, host: row.host };
  return { runId: row.run_id, holder, acquiredAt: iso(row.acquired_at), heartbeatAt: iso(row.heartbeat_at), expiresAt: iso(row.expires_at) };
}
