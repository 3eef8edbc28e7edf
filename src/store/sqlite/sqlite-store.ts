import type Database from 'better-sqlite3';
import { InputError } from '../../core/errors.js';
import { assertUniqueSampleIds, type GenerateResult, type Role, type Sample, type Score } from '../../core/index.js';
import type { RecordedEngine, RunEvent } from '../records.js';
import type { CallRecord, LeaseClaim, LeaseHolder, ResultCount, ResultRecord, RoleSpend, ReviewRecord, RunEnd, RunLease, RunRecord, RunSlice, RunStatus, ResultFacts, SampleRange, StepCount, StoredSample, StoredSampleFacts, SuiteRunRecord, UnitStartState } from '../records.js';
import { rangeBounds } from '../sample-range.js';
import { appendRunEvents, decodeRunParts, encodeRunParts } from '../run-record-codec.js';
import type { RunImport, SaveOptions, Store } from '../store.js';
import { callsReferringToInput, checkSliceContinues } from '../imported-slice.js';
import { ambiguousPrefixError, checkRunSamples, emptyRunIdError, noDoneResultError, outcomeMismatch } from '../checks.js';
import { nullableToJson, optionalToJson, repeatParam, unitStartStateFromRow, type UnitStartRow } from '../row-codec.js';
import { CallCacheIndex } from './call-cache.js';
import { CallPositions } from './call-positions.js';
import { Checkpointer, SMALL_RUN_UNITS } from './checkpointer.js';
import { GroupCommit, type Waiting } from './group-commit.js';
import { openDatabase } from './open-database.js';
import { RunLeases } from './run-leases.js';
import { reservePath, StatusReserve } from './status-reserve.js';
import { storeFailureOf } from '../store-failure.js';
import { inputToJson, requestToJson, RunTexts } from './sample-input.js';
import { DELETE_RUN_ROWS, SQL } from './statements.js';
import { callFromRow, resultFactsFromRow, resultFromRow, reviewFromRow, runFromRow, runToParams, sampleFactsFromRow, sampleFromRow, type CallRow, type ResultFactsRow, type ResultRow, type ReviewRow, type RunRow, type SampleFactsRow, type SampleRow, type SpendRow } from './rows.js';

/** What the sample and result reads bind: the run and its positions [from, to). */
interface PositionRange {
  readonly runId: string;
  readonly from: number;
  readonly to: number;
}

const positions = (runId: string, range?: SampleRange): PositionRange => ({ runId, ...rangeBounds(range) });

export interface SqliteStoreOptions {
  /** Checkpoint the WAL from a worker thread once a run writes (a small run: once its writes have grown it; default true; see `checkpointer.ts`). */
  readonly backgroundCheckpoints?: boolean;
  /** The WAL size in bytes from which a small run's writes start the thread (default `START_WAL_BYTES`, 8 MB): tests start it at once with 0. */
  readonly checkpointFromWalBytes?: number;
  /** The clock run leases are measured by (ms since the epoch; default `Date.now`): tests expire a lease without waiting. */
  readonly clock?: () => number;
}

/** Opens (creating folders and file if needed) the SQLite store at `path`, or a private one for `:memory:`. */
export async function openSqliteStore(path: string, options: SqliteStoreOptions = {}): Promise<SqliteStore> {
  const db = openDatabase(path);
  const background = options.backgroundCheckpoints !== false && !db.memory;
  return new SqliteStore(db, path, background ? new Checkpointer(db, path, options.checkpointFromWalBytes) : undefined, options.clock);
}

/** An outcome waiting for the next group commit (`GroupCommit`). */
interface PendingOutcome {
  readonly calls: readonly CallRecord[];
  /** Null for the calls of a sample whose work was cut short (`saveCalls`). */
  readonly result: ResultRecord | null;
  /** An `error` result already stored for the unit may be replaced (a resume's `--retry-errors`). */
  readonly replaceError: boolean;
}

/**
 * The `Store` on better-sqlite3. Every method does its work synchronously before its promise
 * settles, so a resolved `saveOutcome` is committed to the WAL. All statements are prepared once
 * here; the hot path (`saveOutcome`) only binds and steps them.
 */
export class SqliteStore implements Store {
  private readonly insertRun: Database.Statement<unknown[]>;
  private readonly insertSample: Database.Statement<unknown[]>;
  private readonly insertRunText: Database.Statement<unknown[]>;
  private readonly selectRunTexts: Database.Statement<[string], { text_id: number; text: string }>;
  private readonly insertCall: Database.Statement<unknown[]>;
  private readonly upsertResult: Database.Statement<unknown[]>;
  private readonly updateScore: Database.Statement<[string | null, string, string, string, number]>;
  private readonly selectRun: Database.Statement<[string], RunRow>;
  private readonly selectRunSpend: Database.Statement<[string], SpendRow>;
  private readonly selectRunIdsByPrefix: Database.Statement<[{ prefix: string }], string>;
  private readonly selectRuns: Database.Statement<[], RunRow>;
  private readonly updateStatus: Database.Statement<[string, string, string]>;
  private readonly selectSamples: Database.Statement<[PositionRange], SampleRow>;
  private readonly selectSampleFacts: Database.Statement<[PositionRange], SampleFactsRow>;
  private readonly selectFinished: Database.Statement<[{ runId: string; modelId: string; includeErrors: number; repeat: number }], string>;
  private readonly selectUnitStartState: Database.Statement<[{ runId: string; sampleId: string; modelId: string; repeat: number }], UnitStartRow<SampleRow>>;
  private readonly selectResults: Database.Statement<[PositionRange & { modelId: string | null }], ResultRow>;
  private readonly selectResultsWithoutOutput: Database.Statement<[PositionRange & { modelId: string | null }], ResultRow>;
  private readonly selectResultFacts: Database.Statement<[PositionRange], ResultFactsRow>;
  private readonly selectCalls: Database.Statement<[{ runId: string; sampleId: string | null }], CallRow>;
  private readonly selectSampleTail: Database.Statement<[{ runId: string }], { next_idx: number; next_text_id: number }>;
  // Write transactions are run with `.immediate()`: BEGIN IMMEDIATE takes the write lock up front,
  // so with a second process on the file we wait (busy_timeout) instead of failing on an upgrade.
  private readonly createRunTx: Database.Transaction<(run: RunRecord, samples: readonly Sample[]) => void>;
  private readonly addSamplesTx: Database.Transaction<(runId: string, samples: readonly Sample[]) => void>;
  /** Per run being stored in chunks: the next sample's index and the shared texts numbered so far. */
  private readonly sampleTails = new Map<string, { nextIdx: number; texts: RunTexts }>();
  private readonly saveOutcomeTx: Database.Transaction<(calls: readonly CallRecord[], result: ResultRecord | null, replaceError: boolean) => boolean>;
  /** Writes calls and a result inside the caller's transaction (an outcome, or a slice being imported); false when the unit had a result already. */
  private readonly writeOutcome: (calls: readonly CallRecord[], result: ResultRecord | null, replaceError: boolean) => boolean;
  /** Where a run's calls sit in its sample order, made when a run is first read in slices. */
  private callPositions: CallPositions | undefined;
  /** The run this store created last, when it has at most `SMALL_RUN_UNITS` units: its checkpoints wait for its WAL to grow (`Checkpointer.wrote`). */
  private smallRunId: string | undefined;
  /** True while an import holds the write transaction open (`importRun`). */
  private importing = false;
  private readonly saveBatchTx: Database.Transaction<(batch: readonly Waiting<PendingOutcome>[]) => boolean[]>;
  /** Outcomes waiting to be written, resolved once their transaction commits. */
  private readonly saves = new GroupCommit<PendingOutcome>((batch) => this.writeBatch(batch));
  private readonly cacheIndex: CallCacheIndex;
  /** Cacheable calls written by the transaction in progress, handed to the cache index once it commits. */
  private writtenCacheable: [cacheKey: string, callId: number][] = [];
  private readonly leases: RunLeases;
  /** Room kept for a run's final status on a full disk; none for a database in memory. */
  private readonly reserve: StatusReserve | undefined;
  private readonly updateScoresTx: Database.Transaction<(runId: string, modelId: string, scores: ReadonlyMap<string, Score>, repeat: number) => void>;

  /** Takes ownership of an open, migrated database (see `openSqliteStore`). */
  constructor(
    private readonly db: Database.Database,
    /** The path the store was opened with, for messages. */
    readonly file: string,
    /** Started when the store first writes a run; stopped by `close`. */
    private readonly checkpointer?: Checkpointer,
    clock: () => number = Date.now,
  ) {
    this.leases = new RunLeases(db, file, clock);
    this.reserve = db.memory ? undefined : new StatusReserve(reservePath(file));
    this.insertRun = db.prepare(SQL.insertRun);
    this.insertSample = db.prepare(SQL.insertSample);
    this.insertRunText = db.prepare(SQL.insertRunText);
    this.selectRunTexts = db.prepare(SQL.selectRunTexts);
    this.insertCall = db.prepare(SQL.insertCall);
    this.upsertResult = db.prepare(SQL.upsertResult);
    this.updateScore = db.prepare(SQL.updateScore);
    this.selectRun = db.prepare(SQL.selectRun);
    this.selectRunSpend = db.prepare(SQL.selectRunSpend);
    this.selectRunIdsByPrefix = db.prepare<[{ prefix: string }], string>(SQL.selectRunIdsByPrefix).pluck();
    this.selectRuns = db.prepare(SQL.selectRuns);
    this.updateStatus = db.prepare(SQL.updateStatus);
    this.selectSamples = db.prepare(SQL.selectSamples);
    this.selectSampleFacts = db.prepare(SQL.selectSampleFacts);
    this.selectFinished = db.prepare<[{ runId: string; modelId: string; includeErrors: number; repeat: number }], string>(SQL.selectFinished).pluck();
    this.selectUnitStartState = db.prepare<[{ runId: string; sampleId: string; modelId: string; repeat: number }], UnitStartRow<SampleRow>>(SQL.selectUnitStartState);
    this.selectResults = db.prepare(SQL.selectResults);
    this.selectResultsWithoutOutput = db.prepare(SQL.selectResultsWithoutOutput);
    this.selectResultFacts = db.prepare(SQL.selectResultFacts);
    this.selectCalls = db.prepare(SQL.selectCalls);

    this.selectSampleTail = db.prepare(SQL.selectSampleTail);
    const insertSamples = (runId: string, samples: readonly Sample[]): void => {
      const tail = this.sampleTail(runId);
      for (const sample of samples) {
        const input = inputToJson(sample.input, tail.texts);
        for (const { id, text } of tail.texts.takeNew()) this.insertRunText.run(runId, id, text);
        this.insertSample.run(
          runId,
          sample.id,
          tail.nextIdx,
          input,
          optionalToJson(sample.tools),
          optionalToJson(sample.target),
          JSON.stringify(sample.metadata),
          optionalToJson(sample.hints),
        );
        tail.nextIdx++;
      }
    };
    this.createRunTx = db.transaction((run: RunRecord, samples: readonly Sample[]) => {
      this.insertRun.run(...runToParams(run));
      this.sampleTails.set(run.id, { nextIdx: 0, texts: new RunTexts() });
      insertSamples(run.id, samples);
    });
    this.addSamplesTx = db.transaction(insertSamples);

    /** Writes an outcome unless its unit has a result it may not replace (then nothing, and false). */
    const writeOutcome = (calls: readonly CallRecord[], result: ResultRecord | null, replaceError: boolean): boolean => {
      // The result's output is normally the very object of the last successful call: serialize it
      // once (a provider's rawResponse can be kilobytes).
      let answered: CallRecord | undefined;
      for (const call of calls) if (call.output !== null) answered = call;
      const answeredText = answered === undefined ? null : nullableToJson(answered.output);
      // The result first: its upsert changes nothing when the unit has a result it may not replace
      // (inside the write transaction, BEGIN IMMEDIATE, no other writer can slip in), and then no
      // call is written either. One statement, not a read of the unit's status before every save.
      if (result !== null) {
        const { changes } = this.upsertResult.run(
          result.runId,
          result.sampleId,
          result.modelId,
          result.repeat ?? 0,
          result.status,
          result.output !== null && answered !== undefined && result.output === answered.output ? answeredText : nullableToJson(result.output),
          nullableToJson(result.score),
          nullableToJson(result.error),
          result.cached ? 1 : 0,
          result.attempts,
          result.latencyMs,
          result.usage.inputTokens ?? null,
          result.usage.outputTokens ?? null,
          result.costUsd,
          result.finishedAt,
          result.transcript === undefined ? null : JSON.stringify(result.transcript),
          replaceError ? 1 : 0,
        );
        if (changes === 0) return false;
      }
      // A sample's attempts share one request object: serialize it once.
      let requested: Pick<CallRecord, 'request' | 'messagesFromSample'> | undefined;
      let requestText: string | null = null;
      for (const call of calls) {
        if (requested === undefined || call.request !== requested.request || call.messagesFromSample !== requested.messagesFromSample) {
          requested = call;
          requestText = requestToJson(call.request, call.messagesFromSample);
        }
        const { lastInsertRowid } = this.insertCall.run(
          call.runId,
          call.sampleId,
          call.modelId,
          call.role,
          call.attempt,
          call.cacheKey,
          requestText,
          call === answered ? answeredText : nullableToJson(call.output),
          nullableToJson(call.error),
          call.usage.inputTokens ?? null,
          call.usage.outputTokens ?? null,
          call.costUsd,
          call.latencyMs,
          call.startedAt,
          call.actor ?? null,
          call.step ?? null,
          repeatParam(call),
        );
        if (call.cacheKey !== null && call.output !== null && call.error === null) this.writtenCacheable.push([call.cacheKey, Number(lastInsertRowid)]);
      }
      return true;
    };
    this.writeOutcome = writeOutcome;
    this.saveOutcomeTx = db.transaction(writeOutcome);

    this.saveBatchTx = db.transaction((batch: readonly Waiting<PendingOutcome>[]) => batch.map(({ item }) => writeOutcome(item.calls, item.result, item.replaceError)));
    this.cacheIndex = new CallCacheIndex(db);
    // Catch up on calls a killed process saved but never merged.
    this.tryMergeCache(true);
    this.updateScoresTx = db.transaction((runId: string, modelId: string, scores: ReadonlyMap<string, Score>, repeat: number) => {
      for (const [sampleId, score] of scores) {
        const { changes } = this.updateScore.run(nullableToJson(score), runId, modelId, sampleId, repeat);
        // Throwing rolls the whole batch back: a re-score is applied completely or not at all.
        if (changes === 0) throw noDoneResultError(runId, modelId, sampleId);
      }
    });
  }

  /**
   * Stores the run and its samples (in order) in one transaction: all of them, or with
   * `run.sampleCount` set, the first ones (`addSamples` stores the rest).
   */
  async createRun(run: RunRecord, samples: readonly Sample[]): Promise<void> {
    if (this.selectRun.get(run.id) !== undefined) {
      throw new InputError(`run ${run.id} already exists in ${this.file}`, { file: this.file });
    }
    checkRunSamples(run, samples);
    try {
      this.createRunTx.immediate(run, samples);
    } catch (error) {
      this.sampleTails.delete(run.id);
      throw error;
    }
    // A small run's checkpoints wait for its WAL to grow; a larger run's start with its writes.
    const units = (run.sampleCount ?? samples.length) * run.models.length * (run.repeats ?? 1);
    this.smallRunId = units <= SMALL_RUN_UNITS ? run.id : undefined;
    this.wroteSoon(this.smallRunId === undefined);
  }

  /**
   * Stores the next samples of a run (in order, after those stored already) in one transaction.
   * A sample id the run has already is refused (the primary key), the batch rolled back.
   */
  async addSamples(runId: string, samples: readonly Sample[]): Promise<void> {
    if (this.selectRun.get(runId) === undefined) throw new InputError(`no run ${runId} in ${this.file}`, { file: this.file });
    assertUniqueSampleIds(samples, `run ${runId}`);
    try {
      this.addSamplesTx.immediate(runId, samples);
    } catch (error) {
      // The numbering in memory may be ahead of what was rolled back: read it again next time.
      this.sampleTails.delete(runId);
      throw error;
    }
    this.wroteSoon();
  }

  /**
   * Tells the background checkpoints of a run's write (`Checkpointer.wrote`; `start`: start them
   * now whatever the WAL's size) on the next turn of the event loop, not in `createRun` itself:
   * making the thread takes ~10 ms of the main thread, which a new run's first calls need not wait
   * for. A store closed meanwhile starts none.
   */
  private wroteSoon(start = false): void {
    const checkpointer = this.checkpointer;
    if (checkpointer) setImmediate(() => this.db.open && (start ? checkpointer.start() : checkpointer.wrote()));
  }

  /** Where the run's next sample goes: known from this session's writes, else read from the store. */
  private sampleTail(runId: string): { nextIdx: number; texts: RunTexts } {
    let tail = this.sampleTails.get(runId);
    if (!tail) {
      const row = this.selectSampleTail.get({ runId }) as { next_idx: number; next_text_id: number };
      tail = { nextIdx: row.next_idx, texts: new RunTexts(row.next_text_id) };
      this.sampleTails.set(runId, tail);
    }
    return tail;
  }

  /** Exact id first, else a unique prefix; an ambiguous prefix is an `InputError` listing the matches. */
  async getRun(idOrPrefix: string): Promise<RunRecord | undefined> {
    const exact = this.selectRun.get(idOrPrefix);
    if (exact) return runFromRow(exact);
    if (idOrPrefix === '') throw emptyRunIdError();
    const ids = this.selectRunIdsByPrefix.all({ prefix: idOrPrefix });
    if (ids.length === 0) return undefined;
    if (ids.length > 1) throw ambiguousPrefixError(idOrPrefix, ids);
    const row = this.selectRun.get(ids[0] as string);
    return row ? runFromRow(row) : undefined;
  }

  /** Newest first. */
  async listRuns(): Promise<RunRecord[]> {
    return this.selectRuns.all().map(runFromRow);
  }

  async setRunStatus(id: string, status: RunStatus, event?: RunEvent): Promise<void> {
    // A run that stops running adds no more samples in this session (a resume reads where it ended).
    if (status !== 'running') this.sampleTails.delete(id);
    if (event !== undefined) {
      this.rewriteParts(id, status, (engine) => appendRunEvents(engine, [{ ...event, at: new Date().toISOString() }]));
      return;
    }
    const { changes } = this.updateStatus.run(status, new Date().toISOString(), id);
    if (changes === 0) throw new InputError(`no run ${id} in ${this.file}`, { file: this.file });
  }

  /** Sets the run's status and rewrites its `engine` column (its typed parts) in one IMMEDIATE transaction. */
  private rewriteParts(runId: string, status: RunStatus, rewrite: (engine: string) => string): void {
    this.saves.flush();
    this.db
      .transaction(() => {
        const row = this.db.prepare<[string], { engine: string }>(SQL.selectRunParts).get(runId);
        if (row === undefined) throw new InputError(`no run ${runId} in ${this.file}`, { file: this.file });
        this.db.prepare(SQL.updateRunParts).run({ runId, status, engine: rewrite(row.engine), updatedAt: new Date().toISOString() });
      })
      .immediate();
  }

  async acquireRunLease(runId: string, holder: LeaseHolder, ttlMs: number): Promise<LeaseClaim> {
    const claim = this.leases.acquire(runId, holder, ttlMs);
    // A session that will write a run keeps room for writing how it ends (see `StatusReserve`).
    if (claim.acquired) this.reserve?.ensure();
    return claim;
  }

  async renewRunLease(runId: string, holderId: string, ttlMs: number): Promise<boolean> {
    return this.leases.renew(runId, holderId, ttlMs);
  }

  async releaseRunLease(runId: string, holderId: string, end?: RunEnd): Promise<boolean> {
    // Outcomes still waiting for their group commit belong to the session ending here: write them first.
    this.saves.flush();
    let released: boolean;
    try {
      released = this.leases.release(runId, holderId, end);
    } catch (error) {
      // A disk full to the last byte: the reserve's room is given back for this one write.
      if (storeFailureOf(error)?.cause !== 'full' || !this.reserve?.spend()) throw error;
      released = this.leases.release(runId, holderId, end);
    }
    if (end !== undefined && end.status !== 'running') this.sampleTails.delete(runId);
    return released;
  }

  async continueRun(runId: string, engine: RecordedEngine, submitted?: { readonly queue: string; readonly session: string }): Promise<void> {
    this.rewriteParts(runId, 'running', (stored) => {
      const parts = decodeRunParts(stored);
      return encodeRunParts({ ...parts, engine, events: submitted ? [...parts.events, { type: 'submitted', at: new Date().toISOString(), ...submitted }] : parts.events });
    });
  }

  /** A file on this machine: never unreachable (a disk error is not waited out). */
  isUnavailable(): boolean {
    return false;
  }

  async runLease(runId: string): Promise<(RunLease & { live: boolean }) | undefined> {
    return this.leases.get(runId);
  }

  /** The run's shared prompt texts, by number (see `sample-input.ts`). */
  private runTexts(runId: string): string[] {
    const texts: string[] = [];
    for (const { text_id, text } of this.selectRunTexts.all(runId)) texts[text_id] = text;
    return texts;
  }

  /** The run's samples in their original order, each with its `index`. */
  async loadSamples(runId: string, range?: SampleRange): Promise<StoredSample[]> {
    const texts = this.runTexts(runId);
    return this.selectSamples.all(positions(runId, range)).map((row) => sampleFromRow(row, texts));
  }

  async sampleFacts(runId: string, range?: SampleRange): Promise<StoredSampleFacts[]> {
    return this.selectSampleFacts.all(positions(runId, range)).map(sampleFactsFromRow);
  }

  async unitStartState(runId: string, sampleId: string, modelId: string, repeat = 0): Promise<UnitStartState> {
    return unitStartStateFromRow(this.selectUnitStartState.get({ runId, sampleId, modelId, repeat }), (row) => sampleFromRow(row, this.runTexts(runId)));
  }

  async finishedSampleIds(runId: string, modelId: string, opts: { includeErrors?: boolean; repeat?: number } = {}): Promise<Set<string>> {
    const includeErrors = opts.includeErrors === false ? 0 : 1;
    return new Set(this.selectFinished.all({ runId, modelId, includeErrors, repeat: opts.repeat ?? 0 }));
  }

  /**
   * Saves every attempt of a sample, then its result, in one transaction, unless the unit has a
   * result already (then nothing, resolving false; with `replaceError` an error result is replaced).
   * Group commit (`GroupCommit`): outcomes saved during one turn of the event loop are written in
   * one transaction (at `setImmediate`), gathered ones (`gather`) with those of the next few
   * milliseconds, and each promise resolves only once that transaction has committed. So a resolved
   * save is on disk exactly as before, but a burst of answers costs one commit instead of one each.
   * If the batch fails, each outcome is retried alone so one bad record cannot sink the others.
   */
  saveOutcome(calls: readonly CallRecord[], result: ResultRecord, options: SaveOptions = {}): Promise<boolean> {
    const mismatch = outcomeMismatch(calls, result);
    return mismatch ? Promise.reject(mismatch) : this.enqueue({ calls, result, replaceError: options.replaceError ?? false }, options.gather ?? false);
  }

  /**
   * Saves the calls of a sample without a result: its work was cut short (the run stopping while
   * the judge graded it), but what was paid for serves the call cache and the run's spend. The
   * sample stays unfinished. Same group commit as `saveOutcome`.
   */
  async saveCalls(calls: readonly CallRecord[]): Promise<void> {
    if (calls.length > 0) await this.enqueue({ calls, result: null, replaceError: false }, false);
  }

  private enqueue(outcome: PendingOutcome, gather: boolean): Promise<boolean> {
    // Any other run's outcomes (a larger one, or one this store did not create: a resume, even
    // after this store created a small run) start the checkpoints at once, as every run's did.
    if ((outcome.result?.runId ?? outcome.calls[0]?.runId) !== this.smallRunId) this.checkpointer?.start();
    return this.saves.add(outcome, gather);
  }

  /** Writes a group commit's outcomes (`GroupCommit`) and settles each. */
  private writeBatch(batch: readonly Waiting<PendingOutcome>[]): void {
    try {
      const saved = this.committing(() => this.saveBatchTx.immediate(batch));
      batch.forEach((waiting, i) => waiting.resolve(saved[i] ?? false));
    } catch {
      for (const { item, resolve, reject } of batch) {
        try {
          resolve(this.committing(() => this.saveOutcomeTx.immediate(item.calls, item.result, item.replaceError)));
        } catch (error) {
          reject(error);
        }
      }
    }
    this.tryMergeCache(false);
    this.checkpointer?.wrote();
  }

  /** Runs an outcome transaction; the cacheable calls it wrote reach the cache index only if it commits. */
  private committing<T>(transaction: () => T): T {
    this.writtenCacheable = [];
    const outcome = transaction();
    this.cacheIndex.committed(this.writtenCacheable);
    this.writtenCacheable = [];
    return outcome;
  }

  /**
   * Merges the cache index now (`force`) or once enough calls have gathered. Nothing saved depends
   * on it: a merge that fails (another process holding the write lock past the busy timeout) is
   * tried again after the next batch, at close, or by the next store to open the file; until then
   * only other processes miss these calls in the cache.
   */
  private tryMergeCache(force: boolean): void {
    try {
      if (force) this.cacheIndex.merge();
      else this.cacheIndex.mergeIfDue();
    } catch {
      // see above
    }
  }

  /** Replaces the scores of `done` results, all or nothing; a sample without a done result is an error. */
  async updateScores(runId: string, modelId: string, scores: ReadonlyMap<string, Score>, repeat = 0): Promise<void> {
    this.updateScoresTx.immediate(runId, modelId, scores, repeat);
  }

  async lookupCache(cacheKey: string): Promise<GenerateResult | undefined> {
    const text = this.cacheIndex.lookup(cacheKey);
    return text === undefined ? undefined : (JSON.parse(text) as GenerateResult);
  }

  /** Ordered by sample index, then by the run's model order. */
  async results(runId: string, modelId?: string, options: { outputs?: boolean; range?: SampleRange } = {}): Promise<ResultRecord[]> {
    const statement = options.outputs === false ? this.selectResultsWithoutOutput : this.selectResults;
    return statement.all({ ...positions(runId, options.range), modelId: modelId ?? null }).map(resultFromRow);
  }

  async resultFacts(runId: string, range?: SampleRange): Promise<ResultFacts[]> {
    return this.selectResultFacts.all(positions(runId, range)).map(resultFactsFromRow);
  }

  async resultsOf(runId: string, sampleIds: readonly string[]): Promise<ResultRecord[]> {
    if (sampleIds.length === 0) return [];
    const statement = this.db.prepare<[{ runId: string; sampleIds: string }], ResultRow>(SQL.selectResultsOf);
    return statement.all({ runId, sampleIds: JSON.stringify(sampleIds) }).map(resultFromRow);
  }

  async samplesOf(runId: string, sampleIds: readonly string[]): Promise<StoredSample[]> {
    if (sampleIds.length === 0) return [];
    const texts = this.runTexts(runId);
    const statement = this.db.prepare<[{ runId: string; sampleIds: string }], SampleRow>(SQL.selectSamplesOf);
    return statement.all({ runId, sampleIds: JSON.stringify(sampleIds) }).map((row) => sampleFromRow(row, texts));
  }

  async resultCounts(runId: string): Promise<ResultCount[]> {
    return this.db.prepare<[string], ResultCount>(SQL.selectResultCounts).all(runId);
  }

  async runSpend(runId: string): Promise<RoleSpend[]> {
    return this.selectRunSpend.all(runId).map((r) => ({
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

  /** Ordered by sample index, then in the order the calls were saved. */
  async calls(runId: string, sampleId?: string): Promise<CallRecord[]> {
    const texts = this.runTexts(runId);
    return this.selectCalls.all({ runId, sampleId: sampleId ?? null }).map((row) => callFromRow(row, texts));
  }

  async stepCounts(runId: string, role: Role): Promise<StepCount[]> {
    return this.db.prepare<[{ runId: string; role: string }], StepCount>(SQL.selectStepCounts).all({ runId, role });
  }

  /** One read for all the samples (a report's details): ordered as `calls`. */
  async callsOf(runId: string, sampleIds: readonly string[]): Promise<CallRecord[]> {
    if (sampleIds.length === 0) return [];
    const texts = this.runTexts(runId);
    const statement = this.db.prepare<[{ runId: string; sampleIds: string }], CallRow>(SQL.selectCallsOf);
    return statement.all({ runId, sampleIds: JSON.stringify(sampleIds) }).map((row) => callFromRow(row, texts));
  }

  async saveReviews(reviews: readonly ReviewRecord[]): Promise<void> {
    const upsert = this.db.prepare(SQL.upsertReview);
    this.db
      .transaction(() => {
        for (const r of reviews) upsert.run(r.runId, r.sampleId, r.modelId, r.verdict ? 1 : 0, r.note, r.source, r.reviewedAt);
      })
      .immediate();
  }

  async reviews(runId: string): Promise<ReviewRecord[]> {
    return this.db.prepare<[string], ReviewRow>(SQL.selectReviews).all(runId).map(reviewFromRow);
  }

  async saveSuiteRun(record: SuiteRunRecord): Promise<void> {
    this.db.prepare(SQL.upsertSuiteRun).run(record.id, record.suite, record.decidedAt, JSON.stringify(record));
  }

  async suiteRun(id: string): Promise<SuiteRunRecord | undefined> {
    const text = this.db.prepare<[string], string>(SQL.selectSuiteRun).pluck().get(id);
    return text === undefined ? undefined : (JSON.parse(text) as SuiteRunRecord);
  }

  async runSlice(runId: string, from: number, limit: number): Promise<RunSlice> {
    const range = positions(runId, { from, limit });
    const texts = this.runTexts(runId);
    return {
      samples: this.selectSamples.all(range).map((row) => sampleFromRow(row, texts)),
      calls: (this.callPositions ??= new CallPositions(this.db)).rows<CallRow>(runId, range.from, range.to).map((row) => callFromRow(row, texts)),
      results: this.selectResults.all({ ...range, modelId: null }).map(resultFromRow),
      reviews: this.db.prepare<[typeof range], ReviewRow>(SQL.selectReviewsInRange).all(range).map(reviewFromRow),
    };
  }

  /**
   * One write transaction (BEGIN IMMEDIATE) held open from the run's row to `commit`, each slice
   * written synchronously inside it: a reader sees the run whole or not at all, and a killed
   * process leaves only a WAL tail SQLite discards. The copied calls reach the cache index by the
   * merge after the commit.
   */
  async importRun(run: RunRecord): Promise<RunImport> {
    if (this.selectRun.get(run.id) !== undefined) throw new InputError(`run ${run.id} already exists in ${this.file}`, { file: this.file });
    if (this.importing) throw new Error(`${this.file}: another run is being imported`);
    this.saves.flush();
    this.checkpointer?.start();
    this.db.exec('BEGIN IMMEDIATE');
    this.importing = true;
    const end = (sql: 'COMMIT' | 'ROLLBACK'): void => {
      if (!this.importing) return;
      this.importing = false;
      if (this.db.inTransaction) this.db.exec(sql);
      this.writtenCacheable = [];
    };
    try {
      this.insertRun.run(...runToParams(run));
    } catch (error) {
      end('ROLLBACK');
      throw error;
    }
    const texts = new RunTexts();
    let next = 0;
    return {
      add: async (slice) => {
        if (!this.importing) throw new Error(`importing run ${run.id}: the import has ended`);
        next = checkSliceContinues(run.id, slice, next);
        for (const sample of slice.samples) {
          const input = inputToJson(sample.input, texts);
          for (const { id, text } of texts.takeNew()) this.insertRunText.run(run.id, id, text);
          this.insertSample.run(run.id, sample.id, sample.index, input, optionalToJson(sample.tools), optionalToJson(sample.target), JSON.stringify(sample.metadata), optionalToJson(sample.hints));
        }
        this.writeOutcome(callsReferringToInput(slice), null, false);
        for (const result of slice.results) this.writeOutcome([], result, false);
        for (const r of slice.reviews) this.db.prepare(SQL.upsertReview).run(r.runId, r.sampleId, r.modelId, r.verdict ? 1 : 0, r.note, r.source, r.reviewedAt);
      },
      commit: async () => {
        if (!this.importing) throw new Error(`importing run ${run.id}: the import has ended`);
        end('COMMIT');
        this.tryMergeCache(true);
      },
      abort: async () => end('ROLLBACK'),
    };
  }

  /**
   * In one transaction: the run's call-cache entries go, the newest remaining call of each key
   * (another run's) takes its place, then the run's rows.
   */
  async deleteRun(runId: string): Promise<boolean> {
    if (this.selectRun.get(runId) === undefined) return false;
    this.saves.flush();
    // The merge empties the in-memory part of the cache index, which may name the run's calls.
    this.tryMergeCache(true);
    this.db
      .transaction(() => {
        const keys = this.db.prepare<[string], string>(SQL.deleteRunCacheEntries).pluck().all(runId);
        for (const sql of DELETE_RUN_ROWS) this.db.prepare(sql).run(runId);
        if (keys.length > 0) this.db.prepare(SQL.refillCallCache).run({ keys: JSON.stringify(keys) });
      })
      .immediate();
    this.sampleTails.delete(runId);
    return true;
  }

  /** Closes the connection (checkpointing the WAL into the main file); safe to call twice. */
  async close(): Promise<void> {
    if (!this.db.open) return;
    this.saves.flush();
    this.tryMergeCache(true);
    await this.checkpointer?.stop();
    // The last connection to close checkpoints what is left and removes the WAL file.
    if (this.db.open) this.db.close();
  }
}
