import type pg from 'pg';
import { InputError } from '../../core/errors.js';
import { assertUniqueSampleIds, type GenerateResult, type Role, type Sample, type Score } from '../../core/index.js';
import { ambiguousPrefixError, checkRunSamples, checkTtl, emptyRunIdError, noDoneResultError, outcomeMismatch } from '../checks.js';
import { type CallRecord, type LeaseClaim, type LeaseHolder, type ResultCount, type ResultFacts, type ResultRecord, type RoleSpend, type ReviewRecord, type RecordedEngine, type RunEnd, type RunEvent, type RunLease, type RunRecord, type RunSlice, type RunStatus, type SampleRange, type StepCount, type StoredSample, type StoredSampleFacts, type SuiteRunRecord, type UnitStartState } from '../records.js';
import { rangeBounds } from '../sample-range.js';
import { isConnectionLoss } from './connection-loss.js';
import { appendRunEvents, decodeRunParts, encodeRunParts } from '../run-record-codec.js';
import type { RunImport, SaveOptions, Store } from '../store.js';
import { callsReferringToInput, checkSliceContinues } from '../imported-slice.js';
import { redactStoreUrl } from '../store-url.js';
import { repeatParam, unitStartStateFromRow, type UnitStartRow } from '../row-codec.js';
import { connectPool, describePgError, isUserFixable } from './connect.js';
import { applyMigrations } from './migrate.js';
import {
  callFromRow,
  leaseFromRow,
  nullableToJson,
  optionalToJson,
  resultFactsFromRow,
  resultFromRow,
  reviewFromRow,
  runFromRow,
  runToParams,
  sampleFactsFromRow,
  sampleFromRow,
  type CallRow,
  type LeaseRow,
  type ResultFactsRow,
  type ResultRow,
  type ReviewRow,
  type RunRow,
  type SampleFactsRow,
  type SampleRow,
} from './rows.js';

/** Samples per INSERT statement (8 parameters each, under PostgreSQL's 65,535). */
const SAMPLES_PER_INSERT = 1000;
/** Calls per INSERT statement (18 parameters each); an outcome with more is saved in a transaction of several. */
const CALLS_PER_INSERT = 1000;

const RUN_COLUMNS = 'id, task, task_version, status, created_at, updated_at, models, settings, seed, options, dataset_checksums, prompt_version, toolkit_version, engine, judge, sample_count, user_model, metrics_facts, repeats';
const CALL_COLUMNS = 'run_id, sample_id, model_id, role, actor, step, attempt, cache_key, request, messages_from_sample, output, error, input_tokens, output_tokens, cost_usd, latency_ms, started_at, repeat';
const CALL_PARAMS = 18;
const RESULT_COLUMNS = 'run_id, sample_id, model_id, repeat, status, output, score, error, cached, attempts, latency_ms, input_tokens, output_tokens, cost_usd, finished_at, transcript';
const RESULT_PARAMS = 16;

/** `($from, …, $from+count-1)` */
const placeholders = (from: number, count: number): string => `(${Array.from({ length: count }, (_, i) => `$${from + i}`).join(', ')})`;

/**
 * A result is written once per unit (run, sample, model): a unit that has one already is left as
 * it is and `RETURNING` gives no row, unless the parameter after the result's (`replaceError`:
 * `--retry-errors`) allows replacing an `error` result in place. Concurrent saves of one unit
 * serialize on its primary key, so exactly one of them returns a row.
 */
const UPSERT_RESULT = `INSERT INTO results (${RESULT_COLUMNS}) VALUES ${placeholders(1, RESULT_PARAMS)}
  ON CONFLICT (run_id, sample_id, model_id, repeat) DO UPDATE SET
    status = excluded.status, output = excluded.output, score = excluded.score, error = excluded.error,
    cached = excluded.cached, attempts = excluded.attempts, latency_ms = excluded.latency_ms,
    input_tokens = excluded.input_tokens, output_tokens = excluded.output_tokens,
    cost_usd = excluded.cost_usd, finished_at = excluded.finished_at, transcript = excluded.transcript
  WHERE $${RESULT_PARAMS + 1}::boolean AND results.status = 'error'
  RETURNING 1`;

/** The calls table's column types, in `CALL_COLUMNS` order: parameters in a `VALUES` under `SELECT` are typed by hand. */
const CALL_TYPES = ['text', 'text', 'text', 'text', 'text', 'text', 'integer', 'text', 'json', 'boolean', 'json', 'json', 'integer', 'integer', 'double precision', 'double precision', 'timestamptz', 'integer'];

/** A run's results (optionally one model's) in report order: sample order, then the run's model order (a model it does not list first, as in SQLite), then id. */
const selectResultsWith = (columns: string, where = '($2::text IS NULL OR r.model_id = $2) AND s.idx >= $3::bigint AND s.idx < $4::bigint'): string => `SELECT ${columns} FROM results r
    JOIN samples s ON s.run_id = r.run_id AND s.sample_id = r.sample_id
    JOIN runs ON runs.id = r.run_id
  WHERE r.run_id = $1 AND ${where}
  ORDER BY s.idx, array_position(runs.models, r.model_id) NULLS FIRST, r.model_id COLLATE "C", r.repeat`;

const SQL = {
  selectRun: `SELECT ${RUN_COLUMNS} FROM runs WHERE id = $1`,
  selectRuns: `SELECT ${RUN_COLUMNS} FROM runs ORDER BY created_at DESC, id COLLATE "C" DESC`,
  /** starts_with rather than LIKE, so `%` and `_` in a user's prefix are plain characters. */
  selectRunIdsByPrefix: 'SELECT id FROM runs WHERE starts_with(id, $1) ORDER BY created_at DESC, id COLLATE "C" DESC',
  insertRun: `INSERT INTO runs (${RUN_COLUMNS}) VALUES ${placeholders(1, 19)} ON CONFLICT (id) DO NOTHING`,
  /** Locks the run's row for a writer that must be alone on it (adding samples, taking its lease); no row: no run. */
  lockRun: 'SELECT id FROM runs WHERE id = $1 FOR NO KEY UPDATE',
  nextSampleIdx: 'SELECT coalesce(max(idx) + 1, 0) AS next FROM samples WHERE run_id = $1',
  updateStatus: 'UPDATE runs SET status = $2, updated_at = now() WHERE id = $1',
  /** A run's samples at positions [$2, $3) (the whole run: 0 to MAX_SAFE_INTEGER, hence bigint), in order. */
  selectSamples: 'SELECT sample_id, idx, input, tools, target, metadata, hints FROM samples WHERE run_id = $1 AND idx >= $2::bigint AND idx < $3::bigint ORDER BY idx',
  /** As selectSamples, the facts alone (no input, tools or hints): for summaries. */
  selectSampleFacts: 'SELECT sample_id, idx, target, metadata FROM samples WHERE run_id = $1 AND idx >= $2::bigint AND idx < $3::bigint ORDER BY idx',
  /**
   * As SQLite's: the unit's result status, its run's status and events, and its sample's row, in one
   * statement (one snapshot): one row, the run's columns NULL when there is no run, the sample's when it has no such sample.
   */
  selectUnitStartState: `SELECT (SELECT status FROM results WHERE run_id = $1 AND sample_id = $2 AND model_id = $3 AND repeat = $4) AS result_status,
                                runs.status AS run_status, runs.engine,
                                s.sample_id, s.idx, s.input, s.tools, s.target, s.metadata, s.hints
                         FROM (VALUES (1)) AS one LEFT JOIN runs ON runs.id = $1
                                                  LEFT JOIN samples AS s ON s.run_id = $1 AND s.sample_id = $2`,
  selectFinished: "SELECT sample_id FROM results WHERE run_id = $1 AND model_id = $2 AND repeat = $4 AND (status = 'done' OR $3::boolean)",
  /** The newest successful call with the key, from any run (the partial index `calls_cache`). */
  lookupCache: 'SELECT output FROM calls WHERE cache_key = $1 AND output IS NOT NULL AND error IS NULL ORDER BY id DESC LIMIT 1',
  selectResults: selectResultsWith('r.*'),
  selectResultsWithoutOutput: selectResultsWith(
    'r.run_id, r.sample_id, r.model_id, r.repeat, r.status, NULL::json AS output, r.score, r.error, r.cached, r.attempts, r.latency_ms, r.input_tokens, r.output_tokens, r.cost_usd, r.finished_at, NULL::json AS transcript',
  ),
  /** What a summary reads of the results of the samples at positions [$2, $3): no output, and no sort. */
  selectResultFacts: `SELECT r.sample_id, r.model_id, r.repeat, r.status, r.score, r.error, r.cached, r.input_tokens, r.output_tokens, r.cost_usd
                      FROM results r JOIN samples s ON s.run_id = r.run_id AND s.sample_id = r.sample_id
                      WHERE r.run_id = $1 AND s.idx >= $2::bigint AND s.idx < $3::bigint`,
  /** Several samples' results (a viewer's sample detail), ordered as selectResults. */
  selectResultsOf: selectResultsWith('r.*', 'r.sample_id = ANY($2::text[])'),
  selectSamplesOf: 'SELECT sample_id, idx, input, tools, target, metadata, hints FROM samples WHERE run_id = $1 AND sample_id = ANY($2::text[]) ORDER BY idx',
  /** As SQLite's `selectResultCounts`: ids in code-unit order. */
  selectResultCounts: `SELECT model_id AS model, count(*) FILTER (WHERE status = 'done')::int AS done, count(*) FILTER (WHERE status = 'error')::int AS errors
                       FROM results WHERE run_id = $1 GROUP BY model_id ORDER BY model_id COLLATE "C"`,
  /** Sample order, then save order; the sample's input only for the calls whose messages it is. */
  selectCalls: `SELECT c.run_id, c.sample_id, c.model_id, c.role, c.actor, c.step, c.attempt, c.cache_key, c.request, c.output, c.error,
                       c.input_tokens, c.output_tokens, c.cost_usd, c.latency_ms, c.started_at, c.repeat,
                       CASE WHEN c.messages_from_sample THEN s.input END AS sample_input
                FROM calls c JOIN samples s ON s.run_id = c.run_id AND s.sample_id = c.sample_id
                WHERE c.run_id = $1 AND ($2::text IS NULL OR c.sample_id = $2)
                ORDER BY s.idx, c.id`,
  /** Per role and answering model (a judge's or simulated user's calls name it in `actor`), as SQLite's `selectRunSpend`. */
  selectRunSpend: `SELECT role, coalesce(actor, model_id) AS model, count(*)::int AS calls,
                          count(*) FILTER (WHERE error IS NOT NULL)::int AS failed_calls,
                          coalesce(sum(input_tokens), 0)::float8 AS input_tokens, coalesce(sum(output_tokens), 0)::float8 AS output_tokens,
                          coalesce(sum(cost_usd), 0)::float8 AS usd,
                          count(*) FILTER (WHERE cost_usd IS NULL AND output IS NOT NULL)::int AS unpriced
                   FROM calls WHERE run_id = $1
                   GROUP BY role, coalesce(actor, model_id)
                   ORDER BY CASE role WHEN 'test' THEN 0 WHEN 'user' THEN 1 ELSE 2 END, coalesce(actor, model_id) COLLATE "C"`,
  /** As SQLite's `selectStepCounts`: NULL steps first, ids in code-unit order. */
  selectStepCounts: `SELECT model_id AS model, step, count(*)::int AS calls FROM calls
                     WHERE run_id = $1 AND role = $2
                     GROUP BY model_id, step ORDER BY model_id COLLATE "C", step COLLATE "C" NULLS FIRST`,
  /** The calls of several samples in one read, ordered as `selectCalls`. */
  selectCallsOf: `SELECT c.run_id, c.sample_id, c.model_id, c.role, c.actor, c.step, c.attempt, c.cache_key, c.request, c.output, c.error,
                         c.input_tokens, c.output_tokens, c.cost_usd, c.latency_ms, c.started_at, c.repeat,
                         CASE WHEN c.messages_from_sample THEN s.input END AS sample_input
                  FROM calls c JOIN samples s ON s.run_id = c.run_id AND s.sample_id = c.sample_id
                  WHERE c.run_id = $1 AND c.sample_id = ANY($2::text[])
                  ORDER BY s.idx, c.id`,
  updateScores: `UPDATE results r SET score = u.score::json
                 FROM unnest($3::text[], $4::text[]) AS u(sample_id, score)
                 WHERE r.run_id = $1 AND r.model_id = $2 AND r.repeat = $5 AND r.sample_id = u.sample_id AND r.status = 'done'
                 RETURNING r.sample_id`,
  selectReviews: `SELECT v.* FROM reviews v JOIN samples s ON s.run_id = v.run_id AND s.sample_id = v.sample_id
                  WHERE v.run_id = $1 ORDER BY s.idx, v.model_id COLLATE "C"`,
  selectLease: 'SELECT *, expires_at > now() AS live FROM run_leases WHERE run_id = $1',
  /** Takes the lease (inside the acquiring transaction, after the check that it is free); times by the server's clock. */
  upsertLease: `INSERT INTO run_leases (run_id, holder_id, pid, host, acquired_at, heartbeat_at, expires_at)
                VALUES ($1, $2, $3, $4, now(), now(), now() + $5::float8 * interval '1 millisecond')
                ON CONFLICT (run_id) DO UPDATE SET
                  holder_id = excluded.holder_id, pid = excluded.pid, host = excluded.host,
                  acquired_at = CASE WHEN run_leases.holder_id = excluded.holder_id THEN run_leases.acquired_at ELSE excluded.acquired_at END,
                  heartbeat_at = excluded.heartbeat_at, expires_at = excluded.expires_at
                RETURNING *`,
  /** A renewal touches only the holder's own row: no row means the lease was taken over. */
  renewLease: "UPDATE run_leases SET heartbeat_at = now(), expires_at = now() + $3::float8 * interval '1 millisecond' WHERE run_id = $1 AND holder_id = $2",
  deleteLease: 'DELETE FROM run_leases WHERE run_id = $1 AND holder_id = $2',
  selectEngineForUpdate: 'SELECT engine FROM runs WHERE id = $1 FOR NO KEY UPDATE',
  endRun: 'UPDATE runs SET status = $2, engine = $3, updated_at = now() WHERE id = $1',
  /** A slice of a run by sample position (`runSlice`, positions $2 ≤ idx < $3): each ordered as the run's whole read. */
  selectCallsInRange: `SELECT c.run_id, c.sample_id, c.model_id, c.role, c.actor, c.step, c.attempt, c.cache_key, c.request, c.output, c.error,
                              c.input_tokens, c.output_tokens, c.cost_usd, c.latency_ms, c.started_at, c.repeat,
                              CASE WHEN c.messages_from_sample THEN s.input END AS sample_input
                       FROM calls c JOIN samples s ON s.run_id = c.run_id AND s.sample_id = c.sample_id
                       WHERE c.run_id = $1 AND s.idx >= $2 AND s.idx < $3
                       ORDER BY s.idx, c.id`,
  selectReviewsInRange: `SELECT v.* FROM reviews v JOIN samples s ON s.run_id = v.run_id AND s.sample_id = v.sample_id
                         WHERE v.run_id = $1 AND s.idx >= $2 AND s.idx < $3 ORDER BY s.idx, v.model_id COLLATE "C"`,
  /** The foreign keys cascade to samples, calls, results, reviews and the lease. */
  deleteRun: 'DELETE FROM runs WHERE id = $1',
  upsertSuiteRun: `INSERT INTO suite_runs (id, suite, decided_at, record) VALUES ($1, $2, $3, $4)
                   ON CONFLICT (id) DO UPDATE SET suite = excluded.suite, decided_at = excluded.decided_at, record = excluded.record`,
  selectSuiteRun: 'SELECT record FROM suite_runs WHERE id = $1',
} as const;

/**
 * Opens the PostgreSQL store at `url` (`postgres://user:password@host:port/database?…`): connects,
 * and brings the schema up to date (`migrations.ts`). An unreachable server, a wrong database, a
 * refused login or a schema from a newer assay is an `InputError` naming the URL, password hidden.
 */
export async function openPostgresStore(url: string): Promise<PostgresStore> {
  const where = redactStoreUrl(url);
  const { pool, client } = await connectPool(url, where);
  try {
    await applyMigrations(client, where);
  } catch (error) {
    client.release();
    await pool.end().catch(() => undefined);
    if (isUserFixable(error)) throw new InputError(`cannot open PostgreSQL store ${where}: ${describePgError(error)}`);
    throw error;
  }
  client.release();
  return new PostgresStore(pool, where);
}

/**
 * The `Store` on PostgreSQL through a node-postgres pool. Each write is one transaction (one
 * statement where it can be: a saved outcome's calls and result go in one statement, atomic by
 * itself), committed before its promise resolves; a committed write is seen at once by every
 * other connection, on any host: the call cache, the leases and the runs shared by a fleet.
 */
export class PostgresStore implements Store {
  private closed = false;

  /** Takes ownership of a pool on a migrated database (see `openPostgresStore`). */
  constructor(
    private readonly pool: pg.Pool,
    /** The store's URL with its password hidden, for messages. */
    readonly where: string,
  ) {}

  /** Runs `work` in one transaction on one connection: committed if it returns, rolled back if it throws. */
  private async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const value = await work(client);
      await client.query('COMMIT');
      return value;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async createRun(run: RunRecord, samples: readonly Sample[]): Promise<void> {
    checkRunSamples(run, samples);
    await this.transaction(async (client) => {
      const inserted = await client.query(SQL.insertRun, runToParams(run));
      if (inserted.rowCount === 0) throw new InputError(`run ${run.id} already exists in ${this.where}`);
      await insertSamples(client, run.id, 0, samples);
    });
  }

  async addSamples(runId: string, samples: readonly Sample[]): Promise<void> {
    assertUniqueSampleIds(samples, `run ${runId}`);
    await this.transaction(async (client) => {
      // The run's row lock keeps two writers from numbering the same positions.
      if ((await client.query(SQL.lockRun, [runId])).rowCount === 0) throw new InputError(`no run ${runId} in ${this.where}`);
      const { rows } = await client.query<{ next: number }>(SQL.nextSampleIdx, [runId]);
      await insertSamples(client, runId, rows[0]?.next ?? 0, samples);
    });
  }

  /** Exact id first, else a unique prefix; an ambiguous prefix is an `InputError` listing the matches. */
  async getRun(idOrPrefix: string): Promise<RunRecord | undefined> {
    const exact = await this.pool.query<RunRow>({ name: 'assay-select-run', text: SQL.selectRun, values: [idOrPrefix] });
    if (exact.rows[0]) return runFromRow(exact.rows[0]);
    if (idOrPrefix === '') throw emptyRunIdError();
    const { rows } = await this.pool.query<{ id: string }>(SQL.selectRunIdsByPrefix, [idOrPrefix]);
    if (rows.length === 0) return undefined;
    if (rows.length > 1) throw ambiguousPrefixError(idOrPrefix, rows.map((r) => r.id));
    const found = await this.pool.query<RunRow>({ name: 'assay-select-run', text: SQL.selectRun, values: [rows[0]?.id] });
    return found.rows[0] ? runFromRow(found.rows[0]) : undefined;
  }

  /** Newest first. */
  async listRuns(): Promise<RunRecord[]> {
    return (await this.pool.query<RunRow>(SQL.selectRuns)).rows.map(runFromRow);
  }

  async setRunStatus(id: string, status: RunStatus, event?: RunEvent): Promise<void> {
    if (event !== undefined) return this.rewriteParts(id, status, (engine) => appendRunEvents(engine, [{ ...event, at: new Date().toISOString() }]));
    const { rowCount } = await this.pool.query(SQL.updateStatus, [id, status]);
    if (rowCount === 0) throw new InputError(`no run ${id} in ${this.where}`);
  }

  /**
   * Sets the run's status and rewrites its `engine` column (its typed parts) in one transaction
   * holding the run's row. Rewritten here rather than with jsonb functions, which would refuse a
   * `\u0000` in a provider's message.
   */
  private async rewriteParts(runId: string, status: RunStatus, rewrite: (engine: string) => string): Promise<void> {
    await this.transaction(async (client) => {
      const row = (await client.query<{ engine: string }>(SQL.selectEngineForUpdate, [runId])).rows[0];
      if (row === undefined) throw new InputError(`no run ${runId} in ${this.where}`);
      await client.query(SQL.endRun, [runId, status, rewrite(row.engine)]);
    });
  }

  /**
   * One transaction holding the run's row lock, so two holders asking at once are served one
   * after the other and the second sees the first's lease. Expiry is by the server's clock.
   */
  async acquireRunLease(runId: string, holder: LeaseHolder, ttlMs: number): Promise<LeaseClaim> {
    checkTtl(ttlMs);
    return this.transaction(async (client): Promise<LeaseClaim> => {
      if ((await client.query(SQL.lockRun, [runId])).rowCount === 0) throw new InputError(`no run ${runId} in ${this.where}`);
      const current = (await client.query<LeaseRow & { live: boolean }>(SQL.selectLease, [runId])).rows[0];
      if (current && current.holder_id !== holder.id && current.live) return { acquired: false, heldBy: leaseFromRow(current) };
      const { rows } = await client.query<LeaseRow>(SQL.upsertLease, [runId, holder.id, holder.pid, holder.host, ttlMs]);
      const lease = leaseFromRow(rows[0] as LeaseRow);
      const tookOver = current && current.holder_id !== holder.id ? leaseFromRow(current) : undefined;
      return { acquired: true, lease, ...(tookOver ? { tookOverFrom: tookOver } : {}) };
    });
  }

  async renewRunLease(runId: string, holderId: string, ttlMs: number): Promise<boolean> {
    checkTtl(ttlMs);
    const { rowCount } = await this.pool.query({ name: 'assay-renew-lease', text: SQL.renewLease, values: [runId, holderId, ttlMs] });
    return rowCount === 1;
  }

  /**
   * Ends the holder's lease and records how the session ends (`RunEnd`) in one transaction: the
   * final status, and an `ended` event appended to the run's events.
   */
  async releaseRunLease(runId: string, holderId: string, end?: RunEnd): Promise<boolean> {
    return this.transaction(async (client) => {
      if ((await client.query(SQL.deleteLease, [runId, holderId])).rowCount !== 1) return false;
      if (end === undefined) return true;
      const row = (await client.query<{ engine: string }>(SQL.selectEngineForUpdate, [runId])).rows[0];
      if (row === undefined) return true;
      const ended = appendRunEvents(row.engine, [{ type: 'ended', at: new Date().toISOString(), ...end }]);
      await client.query(SQL.endRun, [runId, end.status, ended]);
      return true;
    });
  }

  async continueRun(runId: string, engine: RecordedEngine, submitted?: { readonly queue: string; readonly session: string }): Promise<void> {
    await this.rewriteParts(runId, 'running', (stored) => {
      const parts = decodeRunParts(stored);
      return encodeRunParts({ ...parts, engine, events: submitted ? [...parts.events, { type: 'submitted', at: new Date().toISOString(), ...submitted }] : parts.events });
    });
  }

  isUnavailable(error: unknown): boolean {
    return isConnectionLoss(error);
  }

  async runLease(runId: string): Promise<(RunLease & { live: boolean }) | undefined> {
    const row = (await this.pool.query<LeaseRow & { live: boolean }>(SQL.selectLease, [runId])).rows[0];
    return row ? { ...leaseFromRow(row), live: row.live } : undefined;
  }

  async loadSamples(runId: string, range?: SampleRange): Promise<StoredSample[]> {
    const { from, to } = rangeBounds(range);
    return (await this.pool.query<SampleRow>(SQL.selectSamples, [runId, from, to])).rows.map(sampleFromRow);
  }

  async sampleFacts(runId: string, range?: SampleRange): Promise<StoredSampleFacts[]> {
    const { from, to } = rangeBounds(range);
    return (await this.pool.query<SampleFactsRow>(SQL.selectSampleFacts, [runId, from, to])).rows.map(sampleFactsFromRow);
  }

  async unitStartState(runId: string, sampleId: string, modelId: string, repeat = 0): Promise<UnitStartState> {
    const { rows } = await this.pool.query<UnitStartRow<SampleRow>>({ name: 'assay-unit-start-state', text: SQL.selectUnitStartState, values: [runId, sampleId, modelId, repeat] });
    return unitStartStateFromRow(rows[0], sampleFromRow);
  }

  async finishedSampleIds(runId: string, modelId: string, opts: { includeErrors?: boolean; repeat?: number } = {}): Promise<Set<string>> {
    const { rows } = await this.pool.query<{ sample_id: string }>(SQL.selectFinished, [runId, modelId, opts.includeErrors !== false, opts.repeat ?? 0]);
    return new Set(rows.map((r) => r.sample_id));
  }

  /**
   * The result and its calls in one statement: the calls are inserted only if the result is (see
   * `UPSERT_RESULT`). Each save is its own round trip, so there is nothing to gather (`gather` is ignored).
   */
  async saveOutcome(calls: readonly CallRecord[], result: ResultRecord, options: SaveOptions = {}): Promise<boolean> {
    const mismatch = outcomeMismatch(calls, result);
    if (mismatch) throw mismatch;
    const { params, outputObject, outputText } = callParams(calls);
    const output = result.output !== null && result.output === outputObject ? outputText : nullableToJson(result.output);
    const replaceError = options.replaceError ?? false;
    if (calls.length > CALLS_PER_INSERT) {
      return this.transaction(async (client) => {
        const saved = (await client.query(UPSERT_RESULT, [...resultParams(result, output), replaceError])).rowCount === 1;
        if (saved) await insertCalls(client, calls);
        return saved;
      });
    }
    const values = [...resultParams(result, output), replaceError, ...params];
    const { rows } = await this.pool.query<{ saved: number }>({ name: `assay-save-outcome-${calls.length}`, text: saveOutcomeSql(calls.length), values });
    return rows[0]?.saved === 1;
  }

  async saveCalls(calls: readonly CallRecord[]): Promise<void> {
    if (calls.length === 0) return;
    if (calls.length > CALLS_PER_INSERT) return this.transaction((client) => insertCalls(client, calls));
    await this.pool.query({ name: `assay-save-calls-${calls.length}`, text: insertCallsSql(calls.length, 1), values: callParams(calls).params });
  }

  /** Replaces the scores of `done` results in one transaction; a sample without one rolls the batch back. */
  async updateScores(runId: string, modelId: string, scores: ReadonlyMap<string, Score>, repeat = 0): Promise<void> {
    if (scores.size === 0) return;
    const ids = [...scores.keys()];
    const texts = [...scores.values()].map((score) => nullableToJson(score));
    await this.transaction(async (client) => {
      const { rows } = await client.query<{ sample_id: string }>(SQL.updateScores, [runId, modelId, ids, texts, repeat]);
      if (rows.length === ids.length) return;
      const updated = new Set(rows.map((r) => r.sample_id));
      throw noDoneResultError(runId, modelId, ids.find((id) => !updated.has(id)) ?? '?');
    });
  }

  async lookupCache(cacheKey: string): Promise<GenerateResult | undefined> {
    const { rows } = await this.pool.query<{ output: string }>({ name: 'assay-lookup-cache', text: SQL.lookupCache, values: [cacheKey] });
    return rows[0] ? (JSON.parse(rows[0].output) as GenerateResult) : undefined;
  }

  /** Ordered by sample index, then by the run's model order. */
  async results(runId: string, modelId?: string, options: { outputs?: boolean; range?: SampleRange } = {}): Promise<ResultRecord[]> {
    const text = options.outputs === false ? SQL.selectResultsWithoutOutput : SQL.selectResults;
    const { from, to } = rangeBounds(options.range);
    return (await this.pool.query<ResultRow>(text, [runId, modelId ?? null, from, to])).rows.map(resultFromRow);
  }

  /** Ordered by sample index, then in the order the calls were saved. */
  async calls(runId: string, sampleId?: string): Promise<CallRecord[]> {
    return (await this.pool.query<CallRow>(SQL.selectCalls, [runId, sampleId ?? null])).rows.map(callFromRow);
  }

  async stepCounts(runId: string, role: Role): Promise<StepCount[]> {
    return (await this.pool.query<StepCount>(SQL.selectStepCounts, [runId, role])).rows;
  }

  async callsOf(runId: string, sampleIds: readonly string[]): Promise<CallRecord[]> {
    if (sampleIds.length === 0) return [];
    return (await this.pool.query<CallRow>(SQL.selectCallsOf, [runId, [...sampleIds]])).rows.map(callFromRow);
  }

  async resultFacts(runId: string, range?: SampleRange): Promise<ResultFacts[]> {
    const { from, to } = rangeBounds(range);
    return (await this.pool.query<ResultFactsRow>(SQL.selectResultFacts, [runId, from, to])).rows.map(resultFactsFromRow);
  }

  async resultsOf(runId: string, sampleIds: readonly string[]): Promise<ResultRecord[]> {
    if (sampleIds.length === 0) return [];
    return (await this.pool.query<ResultRow>(SQL.selectResultsOf, [runId, [...sampleIds]])).rows.map(resultFromRow);
  }

  async samplesOf(runId: string, sampleIds: readonly string[]): Promise<StoredSample[]> {
    if (sampleIds.length === 0) return [];
    return (await this.pool.query<SampleRow>(SQL.selectSamplesOf, [runId, [...sampleIds]])).rows.map(sampleFromRow);
  }

  async resultCounts(runId: string): Promise<ResultCount[]> {
    return (await this.pool.query<ResultCount>(SQL.selectResultCounts, [runId])).rows;
  }

  async runSpend(runId: string): Promise<RoleSpend[]> {
    const { rows } = await this.pool.query<{ role: string; model: string; calls: number; failed_calls: number; input_tokens: number; output_tokens: number; usd: number; unpriced: number }>(SQL.selectRunSpend, [runId]);
    return rows.map((r) => ({
      role: r.role as Role,
      model: r.model,
      calls: r.calls,
      failedCalls: r.failed_calls,
      inputTokens: r.input_tokens,
      outputTokens: r.output_tokens,
      usd: r.usd,
      unpriced: r.unpriced,
    }));
  }

  /** One statement (all or none); of two reviews of one item in the batch, the later wins. */
  async saveReviews(reviews: readonly ReviewRecord[]): Promise<void> {
    const latest = [...new Map(reviews.map((r) => [JSON.stringify([r.runId, r.sampleId, r.modelId]), r])).values()];
    if (latest.length === 0) return;
    const params: unknown[] = [];
    const rows: string[] = [];
    for (const r of latest) {
      rows.push(placeholders(params.length + 1, 7));
      params.push(r.runId, r.sampleId, r.modelId, r.verdict, r.note, r.source, r.reviewedAt);
    }
    await this.pool.query(
      `INSERT INTO reviews (run_id, sample_id, model_id, verdict, note, source, reviewed_at) VALUES ${rows.join(', ')}
       ON CONFLICT (run_id, sample_id, model_id) DO UPDATE SET
         verdict = excluded.verdict, note = excluded.note, source = excluded.source, reviewed_at = excluded.reviewed_at`,
      params,
    );
  }

  async reviews(runId: string): Promise<ReviewRecord[]> {
    return (await this.pool.query<ReviewRow>(SQL.selectReviews, [runId])).rows.map(reviewFromRow);
  }

  async saveSuiteRun(record: SuiteRunRecord): Promise<void> {
    await this.pool.query(SQL.upsertSuiteRun, [record.id, record.suite, record.decidedAt, JSON.stringify(record)]);
  }

  async suiteRun(id: string): Promise<SuiteRunRecord | undefined> {
    // A json column comes as its text (see rows.ts).
    const { rows } = await this.pool.query<{ record: string }>(SQL.selectSuiteRun, [id]);
    return rows[0] === undefined ? undefined : (JSON.parse(rows[0].record) as SuiteRunRecord);
  }

  async runSlice(runId: string, from: number, limit: number): Promise<RunSlice> {
    const values = [runId, from, from + limit];
    const [samples, calls, results, reviews] = await Promise.all([
      this.pool.query<SampleRow>(SQL.selectSamples, values),
      this.pool.query<CallRow>(SQL.selectCallsInRange, values),
      this.pool.query<ResultRow>(SQL.selectResults, [runId, null, from, from + limit]),
      this.pool.query<ReviewRow>(SQL.selectReviewsInRange, values),
    ]);
    return {
      samples: samples.rows.map(sampleFromRow),
      calls: calls.rows.map(callFromRow),
      results: results.rows.map(resultFromRow),
      reviews: reviews.rows.map(reviewFromRow),
    };
  }

  /**
   * One transaction on one connection of the pool, from the run's row to `commit`: no other
   * connection sees the run before, and a process that dies mid-way drops its connection, which
   * rolls everything back. Calls are inserted in the order given, so their ids keep it.
   */
  async importRun(run: RunRecord): Promise<RunImport> {
    const client = await this.pool.connect();
    let open = true;
    const end = async (sql: 'COMMIT' | 'ROLLBACK'): Promise<void> => {
      if (!open) return;
      open = false;
      try {
        await client.query(sql);
      } finally {
        client.release();
      }
    };
    try {
      await client.query('BEGIN');
      const inserted = await client.query(SQL.insertRun, runToParams(run));
      if (inserted.rowCount === 0) throw new InputError(`run ${run.id} already exists in ${this.where}`);
    } catch (error) {
      await end('ROLLBACK').catch(() => undefined);
      throw error;
    }
    let next = 0;
    return {
      add: async (slice) => {
        if (!open) throw new Error(`importing run ${run.id}: the import has ended`);
        const first = next;
        next = checkSliceContinues(run.id, slice, next);
        await insertSamples(client, run.id, first, slice.samples);
        await insertCalls(client, callsReferringToInput(slice));
        await insertResults(client, slice.results);
        await insertReviews(client, slice.reviews);
      },
      commit: async () => {
        if (!open) throw new Error(`importing run ${run.id}: the import has ended`);
        await end('COMMIT');
      },
      abort: () => end('ROLLBACK').catch(() => undefined),
    };
  }

  async deleteRun(runId: string): Promise<boolean> {
    return (await this.pool.query(SQL.deleteRun, [runId])).rowCount === 1;
  }

  /** Ends the pool once its queries are done; safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}

/** Inserts `samples` at positions from `firstIdx`, in statements of `SAMPLES_PER_INSERT`. */
async function insertSamples(client: pg.PoolClient, runId: string, firstIdx: number, samples: readonly Sample[]): Promise<void> {
  for (let start = 0; start < samples.length; start += SAMPLES_PER_INSERT) {
    const chunk = samples.slice(start, start + SAMPLES_PER_INSERT);
    const params: unknown[] = [];
    const rows: string[] = [];
    chunk.forEach((sample, i) => {
      rows.push(placeholders(params.length + 1, 8));
      params.push(
        runId,
        sample.id,
        firstIdx + start + i,
        JSON.stringify(sample.input),
        optionalToJson(sample.tools),
        optionalToJson(sample.target),
        JSON.stringify(sample.metadata),
        optionalToJson(sample.hints),
      );
    });
    await client.query(`INSERT INTO samples (run_id, sample_id, idx, input, tools, target, metadata, hints) VALUES ${rows.join(', ')}`, params);
  }
}

/** Inserts many calls in statements of `CALLS_PER_INSERT`, in order (inside the caller's transaction). */
async function insertCalls(client: pg.PoolClient, calls: readonly CallRecord[]): Promise<void> {
  for (let start = 0; start < calls.length; start += CALLS_PER_INSERT) {
    const chunk = calls.slice(start, start + CALLS_PER_INSERT);
    await client.query(insertCallsSql(chunk.length, 1), callParams(chunk).params);
  }
}

/** Inserts results as given (an imported run's: none is there yet), in statements of `CALLS_PER_INSERT` rows. */
async function insertResults(client: pg.PoolClient, results: readonly ResultRecord[]): Promise<void> {
  for (let start = 0; start < results.length; start += CALLS_PER_INSERT) {
    const chunk = results.slice(start, start + CALLS_PER_INSERT);
    const params = chunk.flatMap((result) => resultParams(result, nullableToJson(result.output)));
    const rows = chunk.map((_, i) => placeholders(1 + i * RESULT_PARAMS, RESULT_PARAMS));
    await client.query(`INSERT INTO results (${RESULT_COLUMNS}) VALUES ${rows.join(', ')}`, params);
  }
}

/** Inserts reviews as given (an imported run's), in statements of `CALLS_PER_INSERT` rows. */
async function insertReviews(client: pg.PoolClient, reviews: readonly ReviewRecord[]): Promise<void> {
  for (let start = 0; start < reviews.length; start += CALLS_PER_INSERT) {
    const chunk = reviews.slice(start, start + CALLS_PER_INSERT);
    const params = chunk.flatMap((r) => [r.runId, r.sampleId, r.modelId, r.verdict, r.note, r.source, r.reviewedAt]);
    const rows = chunk.map((_, i) => placeholders(1 + i * 7, 7));
    await client.query(`INSERT INTO reviews (run_id, sample_id, model_id, verdict, note, source, reviewed_at) VALUES ${rows.join(', ')}`, params);
  }
}

/** The statement inserting `count` calls whose parameters start at `$from`. */
function insertCallsSql(count: number, from: number): string {
  const rows = Array.from({ length: count }, (_, i) => placeholders(from + i * CALL_PARAMS, CALL_PARAMS));
  return `INSERT INTO calls (${CALL_COLUMNS}) VALUES ${rows.join(', ')}`;
}

const saveOutcomeSqls = new Map<number, string>();
/**
 * A result's write with its `count` calls (parameters after the result's and `replaceError`),
 * inserted by the same statement only when the result was written (data-modifying CTEs).
 */
function saveOutcomeSql(count: number): string {
  let text = saveOutcomeSqls.get(count);
  if (text === undefined) {
    const from = RESULT_PARAMS + 2;
    const rows = Array.from({ length: count }, (_, i) => `(${CALL_TYPES.map((type, c) => `$${from + i * CALL_PARAMS + c}::${type}`).join(', ')})`);
    const calls = count === 0 ? '' : `, saved_calls AS (INSERT INTO calls (${CALL_COLUMNS}) SELECT * FROM (VALUES ${rows.join(', ')}) AS v WHERE EXISTS (SELECT 1 FROM saved))`;
    text = `WITH saved AS (${UPSERT_RESULT})${calls} SELECT count(*)::integer AS saved FROM saved`;
    saveOutcomeSqls.set(count, text);
  }
  return text;
}

/**
 * The parameters of `calls`, in `CALL_COLUMNS` order. A sample's attempts share one request
 * object, serialized once; so is the last successful output, which the result usually repeats.
 */
function callParams(calls: readonly CallRecord[]): { params: unknown[]; outputObject: unknown; outputText: string | null } {
  const params: unknown[] = [];
  let outputObject: unknown = undefined;
  let outputText: string | null = null;
  let requested: CallRecord | undefined;
  let requestText: string | null = null;
  for (const call of calls) {
    if (requested === undefined || call.request !== requested.request) {
      requested = call;
      requestText = optionalToJson(call.request);
    }
    const output = nullableToJson(call.output);
    if (call.output !== null) {
      outputObject = call.output;
      outputText = output;
    }
    params.push(
      call.runId,
      call.sampleId,
      call.modelId,
      call.role,
      call.actor ?? null,
      call.step ?? null,
      call.attempt,
      call.cacheKey,
      requestText,
      call.messagesFromSample === true,
      output,
      nullableToJson(call.error),
      call.usage.inputTokens ?? null,
      call.usage.outputTokens ?? null,
      call.costUsd,
      call.latencyMs,
      call.startedAt,
      repeatParam(call),
    );
  }
  return { params, outputObject, outputText };
}

/** The parameters of a result, in `RESULT_COLUMNS` order (`output`: its JSON text, already made). */
function resultParams(result: ResultRecord, output: string | null): unknown[] {
  return [
    result.runId,
    result.sampleId,
    result.modelId,
    result.repeat ?? 0,
    result.status,
    output,
    nullableToJson(result.score),
    nullableToJson(result.error),
    result.cached,
    result.attempts,
    result.latencyMs,
    result.usage.inputTokens ?? null,
    result.usage.outputTokens ?? null,
    result.costUsd,
    result.finishedAt,
    result.transcript === undefined ? null : JSON.stringify(result.transcript),
  ];
}
