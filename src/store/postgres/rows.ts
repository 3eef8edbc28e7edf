import { withFields, type GenerateResult, type ReferenceHints, type Role, type ToolSpec } from '../../core/index.js';
import type { CallError, CallRecord, LeaseHolder, ResultRecord, ReviewRecord, RunLease, RunRecord, StoredSample, StoredSampleFacts, ResultFacts } from '../records.js';
import * as codec from '../row-codec.js';
import { usageFromColumns } from '../row-codec.js';

/**
 * Row shapes as node-postgres returns them from this store's pool (`json` columns come as their
 * text, see `postgres-store.ts`; `timestamptz` as Date; `bigint` as a decimal string), and
 * their conversion to records: the codec both stores share (../row-codec.ts, its JSON
 * conventions too) with PostgreSQL's column types, and the samples, calls and leases.
 */

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
  /** 0 for the first (or only) answer's calls and for every call stored before version 4. */
  repeat: number;
  /** The sample's input, joined in when the call's messages were it (`messages_from_sample`). */
  sample_input: string | null;
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

export { nullableToJson, optionalToJson } from '../row-codec.js';
const parse = codec.fromJson;
const nullable = codec.nullableFromJson;
const optional = codec.optionalFromJson;
const iso = (time: Date): string => time.toISOString();

interface PostgresColumns {
  readonly time: Date;
  readonly flag: boolean;
  readonly list: string[];
  readonly bigint: string;
}

const POSTGRES: codec.ColumnReader<PostgresColumns> = {
  time: iso,
  flag: (value) => value,
  list: (models) => models,
  bigint: (text) => Number(text),
  listParam: (models) => models,
};

export type RunRow = codec.RunRow<PostgresColumns>;
export type ResultRow = codec.ResultRow<PostgresColumns>;
export type ReviewRow = codec.ReviewRow<PostgresColumns>;

export const runFromRow = (row: RunRow): RunRecord => codec.runFromRow(row, POSTGRES);
export const runToParams = (run: RunRecord): unknown[] => codec.runToParams(run, POSTGRES);
export const resultFromRow = (row: ResultRow): ResultRecord => codec.resultFromRow(row, POSTGRES);
export type ResultFactsRow = codec.ResultFactsRow<PostgresColumns>;
export const resultFactsFromRow = (row: ResultFactsRow): ResultFacts => codec.resultFactsFromRow(row, POSTGRES);
export const reviewFromRow = (row: ReviewRow): ReviewRecord => codec.reviewFromRow(row, POSTGRES);

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

export type SampleFactsRow = Pick<SampleRow, 'sample_id' | 'idx' | 'target' | 'metadata'>;

/** A sample's facts as `sampleFromRow` reads them (the same target and metadata). */
export function sampleFactsFromRow(row: SampleFactsRow): StoredSampleFacts {
  return { id: row.sample_id, index: row.idx, target: optional<unknown>(row.target), metadata: parse<Record<string, unknown>>(row.metadata) };
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
    ...codec.repeatField(row.repeat),
    attempt: row.attempt,
    cacheKey: row.cache_key,
    request: row.sample_input === null ? request : withFields(request as object, { messages: parse<unknown>(row.sample_input) }),
    output: nullable<GenerateResult>(row.output),
    error: nullable<CallError>(row.error),
    usage: usageFromColumns(row.input_tokens, row.output_tokens),
    costUsd: row.cost_usd,
    latencyMs: row.latency_ms,
    startedAt: iso(row.started_at),
  };
}

export function leaseFromRow(row: LeaseRow): RunLease {
  const holder: LeaseHolder = { id: row.holder_id, pid: row.pid, host: row.host };
  return { runId: row.run_id, holder, acquiredAt: iso(row.acquired_at), heartbeatAt: iso(row.heartbeat_at), expiresAt: iso(row.expires_at) };
}
