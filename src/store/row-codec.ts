// The row codec both SQL stores share (sqlite/rows.ts, postgres/rows.ts): which column holds which
// field, the JSON conventions, and the records made from rows and the parameters made from
// records. What differs between the drivers is only how a few column types arrive — a time as
// ISO text or a Date, a flag as 0/1 or a boolean, the models as JSON text or an array, a bigint as
// a number or its decimal text — and each store says that once, in its `ColumnReader`.
import { usageOf, type GenerateResult, type Score, type TaskOptions, type Transcript, type Usage } from '../core/index.js';
import type { CallError, JudgeConfig, ResultFacts, ResultRecord, ReviewRecord, RunRecord, RunStatus, StoredSample, UnitStartState } from './records.js';
import { decodeRunEvents, decodeRunParts, encodeRunParts } from './run-record-codec.js';

// JSON columns, two conventions chosen per column so every record round-trips:
// - "nullable" columns (output, error, score): JS null/undefined ↔ SQL NULL ↔ JS null;
// - "optional" columns (tools, hints, target, request): JS undefined ↔ SQL NULL ↔ JS undefined,
//   while a JS null is stored as the text `null` and read back as null.
// Values are stored as `JSON.stringify` text: `undefined` object properties are dropped, as in
// any JSON file, so they read back as absent. (PostgreSQL's `json` columns hold the same text.)

/** null/undefined → SQL NULL, anything else → JSON text. */
export const nullableToJson = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));
/** undefined → SQL NULL, anything else (null included) → JSON text. */
export const optionalToJson = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));
/** SQL NULL → null; the caller names the type it stored. */
export const nullableFromJson = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));
/** SQL NULL → undefined; the caller names the type it stored. */
export const optionalFromJson = <T>(text: string | null): T | undefined => (text === null ? undefined : (JSON.parse(text) as T));
/** For NOT NULL JSON columns. */
export const fromJson = <T>(text: string): T => JSON.parse(text) as T;

/** How one driver hands over the column types that differ between the stores. */
export interface ColumnTypes {
  readonly time: unknown;
  readonly flag: unknown;
  readonly list: unknown;
  readonly bigint: unknown;
}

/** Reads those columns as records hold them. */
export interface ColumnReader<C extends ColumnTypes> {
  /** A timestamp as ISO 8601 text. */
  readonly time: (value: C['time']) => string;
  readonly flag: (value: C['flag']) => boolean;
  /** A list of names (a run's models). */
  readonly list: (value: C['list']) => string[];
  readonly bigint: (value: C['bigint']) => number;
  /** A run's models as the driver takes them in a parameter. */
  readonly listParam: (value: readonly string[]) => unknown;
}

export interface RunRow<C extends ColumnTypes> {
  id: string;
  task: string;
  task_version: string;
  status: string;
  created_at: C['time'];
  updated_at: C['time'];
  models: C['list'];
  settings: string;
  seed: C['bigint'];
  options: string;
  dataset_checksums: string;
  prompt_version: string;
  toolkit_version: string;
  engine: string;
  judge: string | null;
  sample_count: number | null;
  user_model: string | null;
  metrics_facts: string | null;
  /** NULL: the model answers each sample once (every run before repeats). */
  repeats: number | null;
}

export interface ResultRow<C extends ColumnTypes> {
  run_id: string;
  sample_id: string;
  model_id: string;
  /** 0 for the first (or only) answer; a record leaves it out then. */
  repeat: number;
  status: string;
  output: string | null;
  score: string | null;
  error: string | null;
  cached: C['flag'];
  attempts: number;
  latency_ms: number;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_usd: number | null;
  finished_at: C['time'];
  transcript: string | null;
}

export interface ReviewRow<C extends ColumnTypes> {
  run_id: string;
  sample_id: string;
  model_id: string;
  verdict: C['flag'];
  note: string;
  source: string;
  reviewed_at: C['time'];
}

/**
 * The row of a unit's start-state read (`Store.unitStartState`): always one, its run's columns NULL
 * for a run not in the store, its sample's (`S`, the backend's sample row) NULL for a sample it lacks.
 */
export type UnitStartRow<S> = {
  result_status: string | null;
  run_status: string | null;
  engine: string | null;
} & { [K in keyof S]: S[K] | null };

/**
 * A unit's start state from its row: of the run's `engine` column, only the events are kept; the
 * sample decoded by the backend's `sampleOf` when the row has one.
 */
export function unitStartStateFromRow<S extends { sample_id: string }>(row: UnitStartRow<S> | undefined, sampleOf: (row: S) => StoredSample): UnitStartState {
  const result = (row?.result_status ?? undefined) as ResultRecord['status'] | undefined;
  if (row === undefined || row.run_status === null || row.engine === null) return { result, run: undefined };
  const run = { status: row.run_status as RunStatus, events: decodeRunEvents(row.engine) };
  // A row whose sample id is set has the sample's every column (NOT NULL ones included): it is the sample's row.
  return row.sample_id === null ? { result, run } : { result, run, sample: sampleOf(row as unknown as S) };
}

/** Parameters of the run insert, in column order (JSON columns stringified once). */
export function runToParams<C extends ColumnTypes>(run: RunRecord, read: ColumnReader<C>): unknown[] {
  return [
    run.id,
    run.task,
    run.taskVersion,
    run.status,
    run.createdAt,
    run.updatedAt,
    read.listParam(run.models),
    JSON.stringify(run.settings),
    run.seed,
    JSON.stringify(run.options),
    JSON.stringify(run.provenance.datasetChecksums),
    run.provenance.promptVersion,
    run.provenance.toolkitVersion,
    encodeRunParts(run),
    run.judge === null ? null : JSON.stringify(run.judge),
    run.sampleCount ?? null,
    run.userModel ?? null,
    optionalToJson(run.metricsFacts),
    run.repeats ?? null,
  ];
}

/** A `runs` row as a RunRecord: its provenance from the checksum and version columns and the details in the `engine` column. */
export function runFromRow<C extends ColumnTypes>(row: RunRow<C>, read: ColumnReader<C>): RunRecord {
  const { provenance, ...parts } = decodeRunParts(row.engine);
  return {
    id: row.id,
    task: row.task,
    taskVersion: row.task_version,
    status: row.status as RunStatus,
    createdAt: read.time(row.created_at),
    updatedAt: read.time(row.updated_at),
    models: read.list(row.models),
    settings: fromJson<RunRecord['settings']>(row.settings),
    seed: read.bigint(row.seed),
    options: fromJson<TaskOptions>(row.options),
    ...parts,
    provenance: {
      datasetChecksums: fromJson<Record<string, string>>(row.dataset_checksums),
      promptVersion: row.prompt_version,
      toolkitVersion: row.toolkit_version,
      ...provenance,
    },
    judge: nullableFromJson<JudgeConfig>(row.judge),
    ...(row.sample_count !== null ? { sampleCount: row.sample_count } : {}),
    ...(row.user_model !== null ? { userModel: row.user_model } : {}),
    ...(row.metrics_facts !== null ? { metricsFacts: fromJson<unknown>(row.metrics_facts) } : {}),
    ...(row.repeats !== null && row.repeats !== undefined ? { repeats: row.repeats } : {}),
  };
}

/** Usage from two nullable columns, leaving out the counts that were not reported. */
export function usageFromColumns(inputTokens: number | null, outputTokens: number | null): Usage {
  return usageOf(inputTokens ?? undefined, outputTokens ?? undefined);
}

/**
 * A result's or call's `repeat` column (NOT NULL, 0 for the first or only answer) as the record
 * holds it: left out for 0, so a run without repeats reads as every run before them did.
 */
export const repeatField = (repeat: number | null | undefined): { repeat?: number } => (typeof repeat === 'number' && repeat > 0 ? { repeat } : {});

/** A record's repeat as its column takes it: absent is 0. */
export const repeatParam = (record: { readonly repeat?: number }): number => record.repeat ?? 0;

/** A `results` row as a ResultRecord. */
export function resultFromRow<C extends ColumnTypes>(row: ResultRow<C>, read: ColumnReader<C>): ResultRecord {
  return {
    runId: row.run_id,
    sampleId: row.sample_id,
    modelId: row.model_id,
    ...repeatField(row.repeat),
    status: row.status as ResultRecord['status'],
    output: nullableFromJson<GenerateResult>(row.output),
    score: nullableFromJson<Score>(row.score),
    error: nullableFromJson<CallError>(row.error),
    cached: read.flag(row.cached),
    attempts: row.attempts,
    latencyMs: row.latency_ms,
    usage: usageFromColumns(row.input_tokens, row.output_tokens),
    costUsd: row.cost_usd,
    finishedAt: read.time(row.finished_at),
    ...(row.transcript !== null && row.transcript !== undefined ? { transcript: fromJson<Transcript>(row.transcript) } : {}),
  };
}

/** The columns of a `results` row a summary reads (`Store.resultFacts`). */
export type ResultFactsRow<C extends ColumnTypes> = Pick<ResultRow<C>, 'sample_id' | 'model_id' | 'repeat' | 'status' | 'score' | 'error' | 'cached' | 'input_tokens' | 'output_tokens' | 'cost_usd'>;

/** A result's facts, each field read as `resultFromRow` reads it. */
export function resultFactsFromRow<C extends ColumnTypes>(row: ResultFactsRow<C>, read: ColumnReader<C>): ResultFacts {
  return {
    sampleId: row.sample_id,
    modelId: row.model_id,
    ...repeatField(row.repeat),
    status: row.status as ResultRecord['status'],
    score: nullableFromJson<Score>(row.score),
    error: nullableFromJson<CallError>(row.error),
    cached: read.flag(row.cached),
    usage: usageFromColumns(row.input_tokens, row.output_tokens),
    costUsd: row.cost_usd,
  };
}

/** A `reviews` row as a ReviewRecord. */
export function reviewFromRow<C extends ColumnTypes>(row: ReviewRow<C>, read: ColumnReader<C>): ReviewRecord {
  return {
    runId: row.run_id,
    sampleId: row.sample_id,
    modelId: row.model_id,
    verdict: read.flag(row.verdict),
    note: row.note,
    source: row.source,
    reviewedAt: read.time(row.reviewed_at),
  };
}
