import { withFields, type GenerateResult, type ReferenceHints, type Role, type ToolSpec } from '../../core/index.js';
import type { CallError, CallRecord, ResultFacts, ResultRecord, ReviewRecord, RunRecord, StoredSample, StoredSampleFacts } from '../records.js';
import * as codec from '../row-codec.js';
import { fromJson, nullableFromJson, optionalFromJson, usageFromColumns } from '../row-codec.js';
import { inputFromJson, SAMPLE_INPUT_REF } from './sample-input.js';

/**
 * Row shapes exactly as SQLite returns them (see migrations.ts), and their conversion to records:
 * the codec both stores share (../row-codec.ts) with SQLite's column types — times as ISO text,
 * flags as 0/1, the models as JSON text —, and the samples and calls SQLite stores its own way
 * (an input as parts of the run's shared texts, sample-input.ts).
 */
interface SqliteColumns {
  readonly time: string;
  readonly flag: number;
  readonly list: string;
  readonly bigint: number;
}

const SQLITE: codec.ColumnReader<SqliteColumns> = {
  time: (text) => text,
  flag: (value) => value !== 0,
  list: (text) => codec.fromJson<string[]>(text),
  bigint: (value) => value,
  listParam: (models) => JSON.stringify(models),
};

export type RunRow = codec.RunRow<SqliteColumns>;
export type ResultRow = codec.ResultRow<SqliteColumns>;
export type ReviewRow = codec.ReviewRow<SqliteColumns>;

export const runFromRow = (row: RunRow): RunRecord => codec.runFromRow(row, SQLITE);
export const runToParams = (run: RunRecord): unknown[] => codec.runToParams(run, SQLITE);
export const resultFromRow = (row: ResultRow): ResultRecord => codec.resultFromRow(row, SQLITE);
export type ResultFactsRow = codec.ResultFactsRow<SqliteColumns>;
export const resultFactsFromRow = (row: ResultFactsRow): ResultFacts => codec.resultFactsFromRow(row, SQLITE);
export const reviewFromRow = (row: ReviewRow): ReviewRecord => codec.reviewFromRow(row, SQLITE);

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
  /** 0 for the first (or only) answer's calls and for every call stored before version 11. */
  repeat: number;
  /** The sample's input, joined in: a stored request refers to it instead of repeating it. */
  sample_input?: string;
}

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

export type SampleFactsRow = Pick<SampleRow, 'sample_id' | 'idx' | 'target' | 'metadata'>;

/** A sample's facts as `sampleFromRow` reads them (the same target and metadata). */
export function sampleFactsFromRow(row: SampleFactsRow): StoredSampleFacts {
  return { id: row.sample_id, index: row.idx, target: optionalFromJson<unknown>(row.target), metadata: fromJson<Record<string, unknown>>(row.metadata) };
}

/** Puts the sample's messages back into a stored request that refers to them (see `SAMPLE_INPUT_REF`). */
function expandSampleInput(request: unknown, row: CallRow, texts: readonly string[]): unknown {
  if (!request || typeof request !== 'object' || (request as { messages?: unknown }).messages !== SAMPLE_INPUT_REF || row.sample_input === undefined) return request;
  return withFields(request, { messages: inputFromJson(row.sample_input, texts, `sample ${row.sample_id}`) });
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
    ...codec.repeatField(row.repeat),
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

