import type { GenerateResult, GenerateSettings, JudgeSettings, Role, Sample, SampleFacts, Score, Transcript, Usage } from '../core/index.js';
import type { TaskOptions } from '../core/index.js';
import type { z } from 'zod';
import type { failFastStopSchema, modifiedDataSchema, provenanceDetailsSchema, recordedEngineSchema, recordedModelSchema, runEventSchema, runProvenanceSchema, suiteMembershipSchema } from './run-parts.js';

export type RunStatus = 'running' | 'finished' | 'interrupted' | 'failed';

/** Everything needed to rebuild a run's samples and explain its numbers. Pure data. */
export interface RunRecord {
  readonly id: string;
  readonly task: string;
  readonly taskVersion: string;
  readonly status: RunStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly models: readonly string[];
  readonly settings: GenerateSettings;
  readonly seed: number;
  readonly options: TaskOptions;
  /** What was asked of the engine (concurrency, retries, cache…: `engineSettingsSchema`, each key as given); never secrets. */
  readonly engine: RecordedEngine;
  /** The suite run the run is a member of (`assay run --suite`, see `suites/membership.ts`); absent for a run of its own. */
  readonly suiteRun?: SuiteMembership;
  /** Where the run came from: its data checksums, prompt and assay versions, data dir, modified data files, declared models (`RunProvenance`). */
  readonly provenance: RunProvenance;
  /**
   * What happened to the run, oldest first: submissions to a queue, resumes, sessions' ends and
   * fail-fast stops (`RunEvent`). Appended by the store (`Store.setRunStatus`,
   * `continueRun`, `releaseRunLease`), never rewritten; read through `run-events.ts`.
   */
  readonly events: readonly RunEvent[];
  /** The judge that grades outputs a task cannot score alone; null when there is none (`--exact-only`, or a task without judging). */
  readonly judge: JudgeConfig | null;
  /** The simulated user's model (`--user-model`) of a task whose solver calls one; absent otherwise. */
  readonly userModel?: string;
  /**
   * How many samples the run has, when the store may hold fewer: a run's samples are stored in
   * chunks as its calls go, so a run stopped early has only the first ones (resume adds the rest).
   * Absent: all of them were stored with the run (`createRun` with every sample; runs before v4).
   */
  readonly sampleCount?: number;
  /**
   * What the task's metrics need beyond the stored samples and scores (`PreparedTask.metricsFacts`:
   * harm measurement's guideline and human labels), plain JSON, so the run is reported from the
   * store alone. Absent when the task needs nothing more (and for runs made before schema v8).
   */
  readonly metricsFacts?: unknown;
  /**
   * How many times the model under test answers each sample (`--repeats`, a suite's `repeats:`),
   * each answer a result of its own (`ResultRecord.repeat`). Absent: once (every run before repeats).
   */
  readonly repeats?: number;
}

/** The engine settings a run records: `engineSettingsSchema`'s, each key optional (as written). */
export type RecordedEngine = Readonly<z.infer<typeof recordedEngineSchema>>;
/** What a member run records of its suite run. */
export type SuiteMembership = Readonly<z.infer<typeof suiteMembershipSchema>>;
/** Where a run came from (see `runProvenanceSchema`). */
export type RunProvenance = Readonly<z.infer<typeof runProvenanceSchema>>;
/** The part of a run's provenance kept beside its spec and events, not in columns of its own (see `provenanceDetailsSchema`). */
export type ProvenanceDetails = Readonly<z.infer<typeof provenanceDetailsSchema>>;
/** One thing that happened to a run (see `runEventSchema`). */
export type RunEvent = Readonly<z.infer<typeof runEventSchema>>;
/** A pinned data file a run read with other bytes. */
export type ModifiedDataRecord = Readonly<z.infer<typeof modifiedDataSchema>>;
/** A declared model as a run recorded it. */
export type RecordedModelRecord = Readonly<z.infer<typeof recordedModelSchema>>;

/** How a run's judge grades: recorded with the run so a resume grades the same way. */
export interface JudgeConfig extends JudgeSettings {
  /** Model id in the judge role. */
  readonly model: string;
  /** True when the judge is also one of the models under test (it grades itself: recorded, and warned about). */
  readonly selfGrading: boolean;
}

/** A human reviewer's verdict on one item, overriding the judge's in reviewed reports (both are kept). */
export interface ReviewRecord {
  readonly runId: string;
  readonly sampleId: string;
  readonly modelId: string;
  readonly verdict: boolean;
  readonly note: string;
  /** The reviewed file it came from, for the audit trail. */
  readonly source: string;
  readonly reviewedAt: string;
}

export interface CallError {
  readonly kind: string;
  readonly message: string;
  readonly status?: number;
}

/** One attempt at one model call: what was sent, what came back, how long it took. */
export interface CallRecord {
  readonly runId: string;
  readonly sampleId: string;
  readonly modelId: string;
  readonly role: Role;
  /** The model that made this call when it is not `modelId` (a judge grading `modelId`'s output). */
  readonly actor?: string;
  /** Its label in the sample's transcript when the sample takes several calls (`claims`, `verdicts#2`); absent for a single call. */
  readonly step?: string;
  /**
   * The repeat of the model under test it was made for (`ResultRecord.repeat`, 0-based), in every
   * role: the model's own calls, the simulated user's and the judge's of that answer. Absent
   * means 0: a run without repeats, and every call stored before calls recorded it (schema v11 /
   * PostgreSQL v4), which the store reads as 0 whatever repeat it was made for.
   */
  readonly repeat?: number;
  readonly attempt: number;
  /** Key of the call cache (sha256 of the canonical request); null when the provider is not cacheable. */
  readonly cacheKey: string | null;
  /**
   * What was sent to the model (messages, tools, settings: the reference hints of a sample are not
   * sent). With `messagesFromSample`, everything but the messages.
   */
  readonly request: unknown;
  /**
   * True when the messages sent are exactly the sample's input (a single-call sample): `request`
   * then leaves them out, since the store holds them with the sample already, and each store keeps
   * the reference its own way instead of repeating a prompt per call. A call read back from a
   * store has its messages in `request` again, and no such flag.
   */
  readonly messagesFromSample?: boolean;
  readonly output: GenerateResult | null;
  readonly error: CallError | null;
  readonly usage: Usage;
  readonly costUsd: number | null;
  readonly latencyMs: number;
  readonly startedAt: string;
}

/** What a run's calls in one role, answered by one model, add up to (every attempt counts as a call). */
export interface RoleSpend {
  readonly role: Role;
  /** The model that answered: a model under test, the simulated user or the judge. */
  readonly model: string;
  readonly calls: number;
  /** Attempts that ended in an error (they are calls too, unbilled as a rule). */
  readonly failedCalls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** USD of the calls whose cost is known (cache hits cost 0). */
  readonly usd: number;
  /** Successful calls whose cost is not known (a model without a price). */
  readonly unpriced: number;
}

/** How many results one model of a run has so far: the counts a run list and a live view poll. */
export interface ResultCount {
  readonly model: string;
  /** Results with status `done` (scored, or no verdict). */
  readonly done: number;
  readonly errors: number;
}

/** How many calls of one role a run has for one model's samples under one step label. */
export interface StepCount {
  /** The model whose samples the calls were made for (`CallRecord.modelId`). */
  readonly model: string;
  /** The step label; null for calls stored without one (a single call, or a run made before labels). */
  readonly step: string | null;
  readonly calls: number;
}

/** The final state of one (sample, model, repeat) unit. An error is never stored as an output. */
export interface ResultRecord {
  readonly runId: string;
  readonly sampleId: string;
  readonly modelId: string;
  /**
   * Which of the model's answers to the sample this is, 0-based, when the run asks the model under
   * test several times per sample (`RunRecord.repeats`); part of the result's identity (run,
   * sample, model, repeat). Absent means 0: a run without repeats and every run stored before them.
   */
  readonly repeat?: number;
  readonly status: 'done' | 'error';
  readonly output: GenerateResult | null;
  readonly score: Score | null;
  readonly error: CallError | null;
  /** True when the output came from the call cache rather than a new call. */
  readonly cached: boolean;
  readonly attempts: number;
  readonly latencyMs: number;
  readonly usage: Usage;
  readonly costUsd: number | null;
  readonly finishedAt: string;
  /**
   * The calls a task's solver made for the sample, in order (a conversation's every turn), when
   * it has a solver; absent for a sample answered in one call (its call is `output`). `usage`,
   * `costUsd`, `attempts` and `latencyMs` then add up every call of the transcript, all roles.
   */
  readonly transcript?: Transcript;
}

/**
 * What a queue worker reads before it starts a unit, in one read of the store
 * (`Store.unitStartState`): whether the unit has its result already (a redelivery), the run as
 * it stands now — its status and its events, which say which resume queued its units last and
 * which models the fleet stopped — and the unit's sample, which the unit's call needs.
 */
export interface UnitStartState {
  /** The status of the unit's result; undefined when it has none. */
  readonly result: ResultRecord['status'] | undefined;
  /** The run's status and events as stored now; undefined for a run not in the store. */
  readonly run: Pick<RunRecord, 'status' | 'events'> | undefined;
  /** The unit's sample as stored (as `Store.samplesOf` reads it); undefined when the run has no sample of that id. */
  readonly sample?: StoredSample;
}

export interface StoredSample extends Sample {
  /** Position in the run's sample order. */
  readonly index: number;
}

/** What a summary reads of a result (`Store.resultFacts`): not its output, transcript, attempts, latency or time. */
export type ResultFacts = Pick<ResultRecord, 'sampleId' | 'modelId' | 'repeat' | 'status' | 'score' | 'error' | 'cached' | 'usage' | 'costUsd'>;

/** A stored sample's facts (`SampleFacts`: id, target, metadata) and position, without its input, tools or hints: what a summary's metrics read (`Store.sampleFacts`). */
export interface StoredSampleFacts extends SampleFacts {
  /** Position in the run's sample order. */
  readonly index: number;
}

/** Sample positions `from` … `from + limit − 1` of a run: a page of it. */
export interface SampleRange {
  readonly from: number;
  readonly limit: number;
}

/**
 * Everything stored for a run's samples at positions `from` … `from + limit − 1` (`Store.runSlice`),
 * each list ordered as the run's whole reads give it: samples by position; calls by sample, then
 * save order; results by sample, then the run's model order; reviews by sample, then model. A run
 * read slice by slice is read whole, with memory bounded by the slice (copying, checksums).
 */
export interface RunSlice {
  readonly samples: readonly StoredSample[];
  readonly calls: readonly CallRecord[];
  readonly results: readonly ResultRecord[];
  readonly reviews: readonly ReviewRecord[];
}

/** Who holds (or asks for) a run's lease: one process session. */
export interface LeaseHolder {
  /** Unique per session (a random id): a pid alone repeats across hosts and restarts. */
  readonly id: string;
  readonly pid: number;
  readonly host: string;
}

/**
 * A run is owned by one process at a time: the holder of its lease. The holder renews it (its
 * heartbeat) well before it expires; a lease not renewed by `expiresAt` is stale (its holder
 * stopped without saying so, e.g. kill -9) and the next process may take it over. Times are the
 * store's clock, so workers on several hosts sharing one store agree on expiry.
 */
export interface RunLease {
  readonly runId: string;
  readonly holder: LeaseHolder;
  /** When this holder took the lease (ISO 8601). */
  readonly acquiredAt: string;
  /** When it was last renewed. */
  readonly heartbeatAt: string;
  /** When it lapses unless renewed before. */
  readonly expiresAt: string;
}

/** What `Store.acquireRunLease` did. */
export type LeaseClaim =
  /** The lease is the caller's now; `tookOverFrom` is the expired lease it replaced, if any. */
  | { readonly acquired: true; readonly lease: RunLease; readonly tookOverFrom?: RunLease }
  /** Another holder's lease is live: the caller must not run the run. */
  | { readonly acquired: false; readonly heldBy: RunLease };

/**
 * A model stopped early because its errors repeat for every sample (a refused key, a model that
 * does not exist, a request shape the provider refuses; see `runner/fail-fast.ts`).
 */
export type FailFastStop = Readonly<z.infer<typeof failFastStopSchema>>;

/**
 * How a session leaves a run, written with the release of its lease: the final status and the
 * models it stopped early (empty: none). Kept with the run as an `ended` event, so `show` and
 * `runs` can say later why the run is interrupted and what to fix; each session's end replaces
 * the last one's stops (`recordedStops` in `run-events.ts`).
 */
export interface RunEnd {
  readonly status: RunStatus;
  readonly failFastStops: readonly FailFastStop[];
}

/**
 * A gate's outcome as a suite run recorded it (gates/'s `GateResult`, structurally: the store does
 * not import gates/). Threshold gates carry the metric's point estimate and 95% interval;
 * regression gates the change B − A against the baseline and its paired 95% interval.
 */
export interface StoredGateOutcome {
  readonly kind: 'threshold' | 'regression';
  /** The suite entry's label (its task, with its position when a suite runs one task twice). */
  readonly entry: string;
  readonly task: string;
  readonly model: string;
  readonly metric: string;
  readonly unit?: string;
  /** The gate in words, threshold and margin included (`min 95.0%, confident`, `no regression beyond −2.0% vs run X`). */
  readonly rule: string;
  readonly outcome: 'pass' | 'fail' | 'inconclusive';
  readonly value: number | null;
  readonly interval: { readonly low: number; readonly high: number } | null;
  readonly relation: 'clears' | 'straddles' | 'misses' | 'none';
  readonly reason: string;
}

/**
 * A suite run's gates as decided when it ended (`assay run --suite`, or `assay resume
 * <suite-run>` to the end): `assay show <suite-run>` and the `last-passing` baseline read this,
 * not the config file as it is now. A later resume to the end replaces it.
 */
export interface SuiteRunRecord {
  /** `suite-YYYYMMDD-HHMMSS-xxxx`, as the member runs' `engine.suiteRun.id`. */
  readonly id: string;
  readonly suite: string;
  /** When the gates were decided (ISO 8601). */
  readonly decidedAt: string;
  /** The member run of each entry, in the suite's order; `run` absent for an entry that never started. */
  readonly runs: readonly { readonly entry: number; readonly task: string; readonly run?: string; readonly status?: string }[];
  readonly gates: readonly StoredGateOutcome[];
  /** The suite run or run the regression gates compared with, when one was found. */
  readonly baseline?: string;
  /** The suite's `strict:` when it ran: an inconclusive gate then failed it. */
  readonly strict: boolean;
  readonly sampleErrors: number;
  readonly interrupted: boolean;
  readonly exitCode: number;
}
