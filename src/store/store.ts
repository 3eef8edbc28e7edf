import type { GenerateResult, Role, Sample, Score } from '../core/index.js';
import type { CallRecord, RecordedEngine, RunEvent, LeaseClaim, ResultCount, StepCount, LeaseHolder, ResultRecord, RoleSpend, ReviewRecord, RunEnd, RunLease, RunRecord, RunSlice, RunStatus, ResultFacts, SampleRange, StoredSample, StoredSampleFacts, SuiteRunRecord, UnitStartState } from './records.js';

/** How `Store.saveOutcome` may write an outcome. */
export interface SaveOptions {
  /** An `error` result stored for the unit is replaced (a resume's `--retry-errors`); a `done` result never is. */
  readonly replaceError?: boolean;
  /**
   * The caller goes on without waiting for this save (a runner with room for more unwritten
   * results): the store may hold it a few milliseconds to write it in one transaction with the
   * saves that follow (SQLite: at most 20 ms after its previous commit, `GATHER_MS`). The save
   * resolves once written, as any other; a save without `gather` is written at the next turn of
   * the event loop, together with any gathered before it. A store that writes each save at once
   * (PostgreSQL: one statement per outcome) ignores it.
   */
  readonly gather?: boolean;
}

/**
 * Persistence for runs, whatever the backend (`openStore`: SQLite, the embedded default, or
 * PostgreSQL). Every method is async so that a networked store fits; a resolved write is
 * committed and survives kill -9 of this process. The behaviour every backend shares is tested
 * once, for each of them (`test-support/store-contract.ts`); how each stores it is its own.
 */
export interface Store {
  /** Records a run with its samples (in order): all of them, or with `run.sampleCount` set, the first ones. */
  createRun(run: RunRecord, samples: readonly Sample[]): Promise<void>;
  /** Stores the next samples of a run, in order, after those it has. */
  addSamples(runId: string, samples: readonly Sample[]): Promise<void>;
  /** Finds a run by its full id or by a unique prefix of it. */
  getRun(idOrPrefix: string): Promise<RunRecord | undefined>;
  listRuns(): Promise<RunRecord[]>;
  /**
   * Sets the run's status; with `event` (its time set by the store), appends it to the run's
   * events in the same transaction (`appendRunEvents`): an in-process resume's; a queue worker's
   * stop of models, with the run `interrupted`, which tells the rest of the fleet (they start none
   * of those models' units once they see it) and `assay show` (which says why).
   */
  setRunStatus(id: string, status: RunStatus, event?: RunEvent): Promise<void>;
  /**
   * Sets a run `running` again with these engine settings, replacing its own, and appends a
   * `submitted` event when given (the queue and the resume's session; it clears the recorded
   * stops): a resume on the queue (`assay resume --queue`), whose workers read the run's settings
   * from the store rather than from a session of their own. Unknown run: an `InputError`.
   */
  continueRun(runId: string, engine: RecordedEngine, submitted?: { readonly queue: string; readonly session: string }): Promise<void>;
  /**
   * Takes the run's lease for `holder` for `ttlMs`, atomically: only when no other holder's lease
   * is live (none, or expired: then it is taken over). The caller's own lease is renewed.
   */
  acquireRunLease(runId: string, holder: LeaseHolder, ttlMs: number): Promise<LeaseClaim>;
  /** Extends the holder's lease by `ttlMs` from now; false when the lease is no longer this holder's. */
  renewRunLease(runId: string, holderId: string, ttlMs: number): Promise<boolean>;
  /**
   * Ends the holder's lease and, when it was still this holder's, records how the session ends
   * (final status, and an `ended` event with the models stopped early: see `RunEnd`) in the same transaction. False (run
   * untouched) when another holder has taken the run over.
   */
  releaseRunLease(runId: string, holderId: string, end?: RunEnd): Promise<boolean>;
  /**
   * Whether an error this store threw means it could not be reached (a network fault, a server
   * restarting) rather than that it refused the operation: the same call may succeed once it is
   * back (see `queue/waiting-store.ts`). An embedded store is never unreachable: false.
   */
  isUnavailable(error: unknown): boolean;
  /** The run's lease as stored, if any, and whether it is live (not expired by the store's clock now). */
  runLease(runId: string): Promise<(RunLease & { readonly live: boolean }) | undefined>;
  /** The run's samples in order; with `range`, only those at positions `from` … `from + limit − 1` (a page: a reader of a large run need not hold it whole). */
  loadSamples(runId: string, range?: SampleRange): Promise<StoredSample[]>;
  /**
   * As `loadSamples`, each sample's facts only (id, target, metadata, position): its input, tools
   * and hints are not read. What a summary's metrics see of a sample (`summarizeRun`).
   */
  sampleFacts(runId: string, range?: SampleRange): Promise<StoredSampleFacts[]>;
  /** Sample ids that already have a result for this model (`done`, and `error` too unless excluded) in this repeat (default 0). */
  finishedSampleIds(runId: string, modelId: string, opts?: { includeErrors?: boolean; repeat?: number }): Promise<Set<string>>;
  /**
   * For a queue worker about to call a model: the status of the unit's result (run, sample, model,
   * repeat — default 0), if it has one, the run's status and events as stored now, and the unit's
   * sample — in one statement, so one round trip and one snapshot per unit (`UnitStartState`).
   */
  unitStartState(runId: string, sampleId: string, modelId: string, repeat?: number): Promise<UnitStartState>;
  /**
   * Writes the attempts of one sample and its final result in one transaction, once: the unit of
   * work (run, sample, model, repeat: `ResultRecord.repeat`, absent = 0) is a unique key, and when it has a result already nothing is
   * written and the save resolves false — a redelivered queue job, or two workers racing on one
   * unit, record nothing twice. `replaceError`: an `error` result stored for the unit is replaced
   * (a resume's `--retry-errors`); a `done` result never is.
   */
  saveOutcome(calls: readonly CallRecord[], result: ResultRecord, options?: SaveOptions): Promise<boolean>;
  /** Writes calls of a sample whose work was cut short, without a result: they serve the cache and the spend; the sample stays unfinished. */
  saveCalls(calls: readonly CallRecord[]): Promise<void>;
  /** Replaces the scores of stored results of one repeat (default 0), by sample id (re-scoring without calling a model). */
  updateScores(runId: string, modelId: string, scores: ReadonlyMap<string, Score>, repeat?: number): Promise<void>;
  /**
   * The newest successful output stored under this cache key by any run, if there is one. This
   * process's own saved calls are found at once; when another process's are depends on the
   * backend (PostgreSQL: once committed; SQLite: after the writer merges its key index — see
   * docs/architecture.md, "The store layer").
   */
  lookupCache(cacheKey: string): Promise<GenerateResult | undefined>;
  /**
   * Results in sample order, then the run's model order, then repeat; `outputs: false` leaves `output` null (summaries need only scores);
   * `range`: only the results of the samples at those positions (see `loadSamples`).
   */
  results(runId: string, modelId?: string, options?: { outputs?: boolean; range?: SampleRange }): Promise<ResultRecord[]>;
  /**
   * What a summary reads of the results of the samples at `range`'s positions (see `loadSamples`),
   * every model's and repeat's, in no particular order: their facts (`ResultFacts`), read as
   * `results` reads them; no output, transcript or time is read, and no order sorted.
   */
  resultFacts(runId: string, range?: SampleRange): Promise<ResultFacts[]>;
  /** The results of these samples (every model's, outputs included), in one read: ordered as {@link results}. */
  resultsOf(runId: string, sampleIds: readonly string[]): Promise<ResultRecord[]>;
  /** These samples of a run (ids it does not have are left out), in run order. */
  samplesOf(runId: string, sampleIds: readonly string[]): Promise<StoredSample[]>;
  /** Per model with any result, how many are done and how many ended in error (models by id): a count, no row read. */
  resultCounts(runId: string): Promise<ResultCount[]>;
  calls(runId: string, sampleId?: string): Promise<CallRecord[]>;
  /** How many calls the run has in `role` per model (`modelId`: whose sample it was) and step label (null: a call without one). */
  stepCounts(runId: string, role: Role): Promise<StepCount[]>;
  /** The calls of these samples (every model's), in one read: ordered as {@link calls}. */
  callsOf(runId: string, sampleIds: readonly string[]): Promise<CallRecord[]>;
  /** What a run's calls add up to so far, per role and answering model (test first, then user, then judge; models by id). */
  runSpend(runId: string): Promise<readonly RoleSpend[]>;
  /** Stores human reviews (all or none); a review of an item that has one already replaces it. */
  saveReviews(reviews: readonly ReviewRecord[]): Promise<void>;
  /** A run's reviews in sample order. */
  reviews(runId: string): Promise<ReviewRecord[]>;
  /**
   * Records a suite run's gate outcomes as decided when it ended, replacing what the same suite
   * run recorded before (a resume to the end decides again). Kept apart from its member runs: a
   * run deleted later leaves the suite run's record as it was decided.
   */
  saveSuiteRun(record: SuiteRunRecord): Promise<void>;
  /** A suite run's recorded gates by its exact id; undefined when none were recorded (a suite run that never ended, or one from before they were stored). */
  suiteRun(id: string): Promise<SuiteRunRecord | undefined>;
  /** Everything stored for the run's samples at positions `from` … `from + limit − 1` (see `RunSlice`); empty lists past the end. */
  runSlice(runId: string, from: number, limit: number): Promise<RunSlice>;
  /**
   * Starts writing a run copied from another store exactly as given (`assay migrate`): its record
   * (status, times, engine and all), then its slices in order, keeping sample positions, call
   * order and every timestamp. Nothing of it is seen by any reader until `commit`; `abort`, a
   * failed `add` or the process dying leaves no trace (one transaction). A run with that id here
   * already is an `InputError`. While an import is open, use this store for nothing else.
   */
  importRun(run: RunRecord): Promise<RunImport>;
  /** Deletes a run (exact id) and everything stored for it: samples, calls (and their cache entries), results, reviews, lease. False when there is no such run. */
  deleteRun(runId: string): Promise<boolean>;
  close(): Promise<void>;
}

/** A run being imported (`Store.importRun`): slices added in order, then committed or aborted. */
export interface RunImport {
  /** Writes the next slice: its samples continue the run's positions (checked), its calls, results and reviews are theirs. */
  add(slice: RunSlice): Promise<void>;
  /** Makes the whole run visible at once. */
  commit(): Promise<void>;
  /** Drops everything written so far; safe after a failed `add` and twice. */
  abort(): Promise<void>;
}
