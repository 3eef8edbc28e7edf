import { assertUniqueIds, InputError, parseModelId, referenceAnswererFor, sampleIds, withFields, type ReferenceAnswerers, type Sample, type SampleList, type SamplesByPosition } from '../core/index.js';
import { allTasks, findTask } from '../benchmarks/registry.js';
import { taskOfRun } from '../benchmarks/task-of-run.js';
import type { PreparedTask, Task } from '../benchmarks/task.js';
import { createEmbedder } from '../models/embedders.js';
import { prepareTask } from '../benchmarks/prepare-task.js';
import type { Model } from '../models/middleware/model.js';
import type { JudgeConfig, RunRecord, StoredSample } from '../store/records.js';
import { newRunId } from '../store/run-id.js';
import { requireRun } from '../store/require-run.js';
import type { Store } from '../store/store.js';
import { storeFailureOf, StoreFailureError } from '../store/store-failure.js';
import { toolkitVersion } from '../version.js';
import { executeSamples, type ProgressEvent } from './execute.js';
import { SAMPLE_CHUNK, SampleFeed, type SamplesAhead } from './sample-feed.js';
import { ResumedSamples } from './resumed-samples.js';
import { storedChunk } from './stored-sample.js';
import { HeldLease, leaseSettings } from './run-lease.js';
import type { FailFastStop } from './fail-fast.js';
import { withRecordedStops } from '../store/run-stops.js';
import { checkPinnedData } from './data-check.js';
import { describeStop, recordedModifiedData } from '../analysis/recorded-run.js';
import { describeModified } from '../datasets/pinned.js';
import { openSession, type RunDependencies, type RunSession } from './run-session.js';
import { declarationsToRecord, isDeclaredName, runModelIds } from './declared-models.js';
import { checkRepeats, type RunSpec } from './run-spec.js';
import type { EngineSettings } from '../core/engine-settings.js';
import { checkEngineSettings } from '../core/engine-settings-check.js';
import type { RunSummary } from '../analysis/summary.js';
import { SummaryAhead } from './summary-ahead.js';
import { prepareForRun, reopen, withRebuiltHints } from '../analysis/reopen.js';
import { withCredentialsHidden, withWorkerEndpoint } from './recorded-base-url.js';

export type { RunDependencies } from './run-session.js';
// Reading a stored run by id and its task moved below the runner (analysis/ reads them too); kept here for the runner's callers.
export { requireRun, taskOfRun };
// A stored run's summary and its task rebuilt from its data are analysis/'s (read from the store alone); kept here for the runner's callers.
export { summarizeStoredRun } from '../analysis/summary.js';
export { reopen };

/**
 * A new run's record and prepared task, checked (task options, data against its pinned sums,
 * judge, user model, baselines, unique sample ids) but not stored yet: what `startRun` records
 * and calls, and what a queue submission records and enqueues (each chunk of samples built and
 * stored in its turn: `storedChunk`). Warnings go to `deps.onWarning`.
 */
export async function newRunRecord(spec: RunSpec, deps: Pick<RunDependencies, 'onWarning' | 'stop' | 'config' | 'env'>, check: { readonly checkModelsReady?: boolean } = {}): Promise<{ run: RunRecord; task: Task; prepared: PreparedTask }> {
  if (spec.models.length === 0) throw new InputError('give at least one --model');
  if (new Set(spec.models).size !== spec.models.length) throw new InputError('the same --model is given twice');
  const task = findTask(spec.task);
  const prepared = await prepareTask(task, { dataDir: spec.dataDir, seed: spec.seed, options: spec.options, createEmbedder, ...(deps.stop ? { signal: deps.stop } : {}) });
  if (prepared.samples.length === 0) throw new InputError(`task ${task.name} produced no samples with these options`);
  checkEngineSettings(spec.engine);
  const modifiedData = checkPinnedData(prepared.datasetChecksums, spec.dataDir, spec.allowModifiedData ?? false);
  const judge = await judgeConfigFor(task.name, prepared, spec);
  const userModel = userModelFor(task.name, prepared, spec);
  // Declared names: in the file, with every variable and file they need, before anything is recorded.
  const declarations = declarationsToRecord(runModelIds({ models: spec.models, judge, ...(userModel !== undefined ? { userModel } : {}) }), deps.config, check.checkModelsReady === false ? undefined : (deps.env ?? process.env));
  checkBaselines(task, prepared, spec.models);
  const now = new Date().toISOString();
  assertUniqueIds(sampleIds(prepared.samples), `task ${task.name}`);
  const run: RunRecord = {
    id: newRunId(),
    task: task.name,
    taskVersion: task.version,
    status: 'running',
    createdAt: now,
    updatedAt: now,
    models: spec.models,
    settings: { ...task.defaultSettings, ...spec.settings },
    seed: spec.seed,
    options: spec.options,
    engine: withCredentialsHidden(spec.engine),
    ...(spec.suiteRun !== undefined ? { suiteRun: spec.suiteRun } : {}),
    provenance: {
      datasetChecksums: prepared.datasetChecksums,
      promptVersion: prepared.promptVersion,
      toolkitVersion,
      dataDir: spec.dataDir,
      ...(modifiedData.length > 0 ? { modifiedData } : {}),
      ...(declarations ? { declarations } : {}),
    },
    events: [],
    judge,
    ...(userModel !== undefined ? { userModel } : {}),
    sampleCount: prepared.samples.length,
    ...(prepared.metricsFacts !== undefined ? { metricsFacts: prepared.metricsFacts } : {}),
    // A run that asks once records nothing (its record is that of every run before repeats).
    ...(spec.repeats !== undefined && checkRepeats(spec.repeats) > 1 ? { repeats: spec.repeats } : {}),
  };
  for (const warning of prepared.warnings ?? []) deps.onWarning?.(warning);
  if (modifiedData.length > 0) deps.onWarning?.(`--allow-modified-data: running on data that differs from the pinned files (recorded with the run): ${describeModified(modifiedData)}`);
  if (judge?.selfGrading) deps.onWarning?.(`the judge ${judge.model} is also a model under test: it grades its own outputs (recorded with the run)`);
  return { run, task, prepared };
}

/** Starts a new run: builds the samples, records the run, calls the models, returns the summary. */
export async function startRun(spec: RunSpec, deps: RunDependencies): Promise<RunSummary> {
  const { run: fresh, task, prepared } = await newRunRecord(spec, deps);
  // Build the providers before recording the run, so a bad model id, a missing key or a replay
  // file made for other samples fails fast. They call with the engine as given (credentials and all).
  const ids = sampleIdsOf(prepared.samples);
  const opened = await openSession(fresh, task, prepared, spec.engine, deps, { sampleIds: ids, toCall: async () => ids() });
  // Every key of the run is known now: none may stay in the recorded base URL either.
  const run: RunRecord = { ...fresh, engine: spec.engine.openaiBaseURL !== undefined ? withCredentialsHidden({ ...fresh.engine, openaiBaseURL: spec.engine.openaiBaseURL }, opened.secrets.has) : fresh.engine };
  const session: RunSession = { ...opened, run };
  // The first samples go with the run, as many as can be called at once (up to a chunk): the first
  // calls wait for no more than those; the rest are stored just ahead of the calls (see SampleFeed).
  const first = Math.min(prepared.samples.length, SAMPLE_CHUNK, Math.max(1, spec.engine.concurrency));
  let lease: HeldLease;
  try {
    await deps.store.createRun(run, storedChunk(prepared.samples, 0, first));
    // Nobody else knows the new run's id yet, but a resume of it may come any time from now on.
    lease = await HeldLease.acquire(deps.store, run.id, leaseSettings(deps.lease), deps.onWarning);
  } catch (error) {
    await session.close();
    throw error;
  }
  deps.onRunCreated?.(run);
  const feed = new SampleFeed(deps.store, run.id, prepared.samples, first);
  return execute(session, deps, { task, samples: prepared.samples, retryErrors: false, ahead: feed, lease });
}

/**
 * Baselines answer from a sample's reference question (its hints), with the answerers its task
 * declares (`Task.baselines`): refuse up front, for each baseline of the run, a task that has none
 * for every sample rather than record every sample as an "unsupported" error, naming what
 * baselines do answer.
 */
function checkBaselines(task: Task, prepared: PreparedTask, models: readonly string[]): void {
  for (const baseline of models.filter((id) => !isDeclaredName(id) && parseModelId(id).provider === 'baseline')) {
    if (task.baselines && answersEverySample(task.baselines.answerers, parseModelId(baseline).model, prepared.samples)) continue;
    const answered = [...new Set(allTasks.flatMap((t) => (t.baselines === undefined ? [] : [t.baselines.questions])))].join(' and ');
    throw new InputError(`${baseline} is a reference point for ${answered}; ${task.name} has none for it to answer (use replay: or a real model)`);
  }
}

/** Whether `strategy` has an answerer for the hints of every sample (none without hints). */
function answersEverySample(answerers: ReferenceAnswerers, strategy: string, samples: SampleList): boolean {
  for (const s of samples) if (s.hints === undefined || referenceAnswererFor(answerers, s.hints.kind, strategy) === undefined) return false;
  return true;
}

/** Checks `--user-model` against the task: required by a solver that talks as a simulated user, refused elsewhere. */
function userModelFor(taskName: string, prepared: PreparedTask, spec: RunSpec): string | undefined {
  const wanted = prepared.solver?.simulatedUser ?? false;
  if (!wanted && spec.userModel !== undefined) throw new InputError(`${taskName} has no simulated user; drop --user-model`);
  if (wanted && spec.userModel === undefined) throw new InputError(`${taskName} simulates a user talking to the model under test: give --user-model <model id> (e.g. openai:gpt-4o-mini)`);
  if (spec.userModel !== undefined && !isDeclaredName(spec.userModel)) parseModelId(spec.userModel);
  return spec.userModel;
}

/** How a refusal for want of a judge says to give one on the command line (a suite says it its own way). */
export const GIVE_A_JUDGE = 'give --judge <model id> (e.g. openai:gpt-4o)';

/** Checks the judge options against the task and records whether the judge grades itself. */
async function judgeConfigFor(taskName: string, prepared: PreparedTask, spec: RunSpec): Promise<JudgeConfig | null> {
  const judged = prepared.gradeWithJudge !== undefined;
  if (!judged && spec.judge) throw new InputError(`${taskName} is scored without a judge; drop --judge`);
  if (!judged && spec.exactOnly) throw new InputError(`${taskName} is scored without a judge; drop --exact-only`);
  // Only a task whose score stands without a judge can run without one (FunctionChat's exact match).
  if (!prepared.judgeOptional && judged && !spec.judge) throw new InputError(`${taskName} is graded by an LLM judge: ${GIVE_A_JUDGE}`);
  if (judged && spec.judge && spec.exactOnly) throw new InputError('give either --judge or --exact-only, not both');
  if (judged && !spec.judge && !spec.exactOnly) {
    throw new InputError(`${taskName} is graded by an LLM judge: ${GIVE_A_JUDGE}, or --exact-only to score tool calls by exact match alone`);
  }
  if (!spec.judge) return null;
  if (!isDeclaredName(spec.judge.model)) parseModelId(spec.judge.model);
  if (!Number.isInteger(spec.judge.repeats) || spec.judge.repeats < 1) throw new InputError(`--judge-repeats must be a whole number ≥ 1, got ${spec.judge.repeats}`);
  // Every other setting too, before anything is recorded: a bad one would otherwise make each judged item a no verdict.
  // The judge's module (rubrics, verdict parsing, votes) is loaded by a judged run only.
  const { checkJudgeSettings } = await import('../judges/judge.js');
  checkJudgeSettings({ ...spec.judge, seed: spec.seed });
  return { ...spec.judge, selfGrading: spec.models.includes(spec.judge.model) };
}

export interface ResumeOptions {
  /** Re-run only samples that ended in error (plus any never attempted). */
  readonly retryErrors?: boolean;
  /** Engine settings to change for this session (concurrency, timeouts…); the rest are the run's. */
  readonly engine?: Partial<EngineSettings>;
  /** Data dir to rebuild the scorer from, if not the one the run was created with. */
  readonly dataDir?: string;
  /** Go on although a pinned data file differs, and the run did not record that (a run made before assay checked). */
  readonly allowModifiedData?: boolean;
  /** The `--repeats` given to the resume, if any: it must be the run's (refused otherwise, before anything is read or written). */
  readonly repeats?: number;
}

/** Refuses a resume given another number of repeats than the run records (absent: 1). */
export function checkResumeRepeats(run: RunRecord, repeats: number | undefined): void {
  if (repeats === undefined || repeats === (run.repeats ?? 1)) return;
  throw new InputError(`run ${run.id} asks each sample ${run.repeats ?? 1} time(s); a resume cannot change that to --repeats ${repeats} (start a new run)`);
}

/**
 * Continues a run: finished samples are neither called again nor lost. Refused (`RunLeasedError`)
 * while another process holds the run's lease; a lease its holder left to expire is taken over.
 */
export async function resumeRun(runIdOrPrefix: string, options: ResumeOptions, deps: RunDependencies): Promise<RunSummary> {
  const run = await requireRun(deps.store, runIdOrPrefix);
  checkResumeRepeats(run, options.repeats);
  // First, before anything is read or written: two resumes started together must not both go on.
  const lease = await HeldLease.acquire(deps.store, run.id, leaseSettings(deps.lease), deps.onWarning);
  let session: RunSession;
  let work: SessionWork;
  try {
    const { task, prepared } = await prepareForRun(run, options.dataDir);
    const samples = await ResumedSamples.open(deps.store, run, prepared.samples);
    for (const warning of prepared.warnings ?? []) deps.onWarning?.(warning);
    // `prepareForRun` holds the data to what the run read; this holds a run that did not know it read
    // modified data to the pinned sums. A run made with --allow-modified-data recorded them.
    const known = recordedModifiedData(run);
    const modified = checkPinnedData(prepared.datasetChecksums, options.dataDir ?? String(run.provenance.dataDir), options.allowModifiedData ?? false, known);
    const unrecorded = modified.filter((m) => !known.some((k) => k.file === m.file && k.actual === m.actual));
    if (unrecorded.length > 0) deps.onWarning?.(`--allow-modified-data: resuming on data that differs from the pinned files, which run ${run.id} did not record (it was made before assay checked): ${describeModified(unrecorded)}`);
    const engine: EngineSettings = { ...recordedEngineSettings(run), ...options.engine };
    // What each model still has to answer in this session: a replay file is checked against those.
    const ids = samples.ids();
    const opened = await openSession({ ...run, status: 'running' }, task, prepared, engine, deps, {
      sampleIds: () => ids,
      toCall: async (model) => {
        const finished = await deps.store.finishedSampleIds(run.id, model.id, { includeErrors: !options.retryErrors });
        return ids.filter((id) => !finished.has(id));
      },
    });
    try {
      await deps.store.setRunStatus(run.id, 'running', { type: 'resumed' });
    } catch (error) {
      await opened.close();
      throw error;
    }
    session = opened;
    // The stored samples are read as the calls reach them, those a stopped run had not stored yet stored just ahead of theirs.
    work = { task, samples, retryErrors: options.retryErrors ?? false, ahead: samples, lease };
  } catch (error) {
    // Refused before any call (data changed, a replay file matching nothing, a bad model id…): the run is as it was, and free.
    await lease.release();
    throw error;
  }
  deps.onRunCreated?.(run);
  return execute(session, deps, work);
}

/** What a queue worker needs of a run to work on its units: its session, rebuilt once per run it sees. */
export interface RunWorkSession extends RunSession {
  /** How many samples the run has. */
  readonly sampleCount: number;
  /**
   * One of the run's samples as the store gave it (`UnitStartState.sample`, read with each unit),
   * with its reference hints from the rebuilt task. Not held for the whole run: a worker's memory
   * stays flat in the run's size.
   */
  withHints(sample: StoredSample): Sample;
  /** A model under test by id, built from the run's model specs with this process's keys. */
  model(id: string): Model | undefined;
}

/**
 * Rebuilds what an in-process session has of a recorded run (`reopen`: the prepared task for
 * scoring, its data checked against the run's sums; the models, judge and simulated user with the
 * run's engine settings and this process's provider keys; its spending cap), for a worker that
 * takes the run's units from a queue (`options.engine`: this worker's own settings, replacing the
 * run's; `options.openaiBaseURL`: its own endpoint, see `withWorkerEndpoint`). No lease: the queue
 * hands each unit to one worker.
 * A fleet-wide budget and shared rate limits plug in through `deps.budgets` and `deps.limiters`.
 */
export async function openRunForWork(
  runId: string,
  deps: RunDependencies,
  options: { readonly dataDir?: string; readonly engine?: Partial<EngineSettings>; readonly openaiBaseURL?: string } = {},
): Promise<RunWorkSession> {
  const run = await requireRun(deps.store, runId);
  // This worker's own endpoint, never a URL from the run record (which would receive this
  // worker's keys); a run naming another is refused before its task is prepared.
  const runEngine = withWorkerEndpoint(run, recordedEngineSettings(run), options.openaiBaseURL);
  const { task, prepared } = await prepareForRun(run, options.dataDir);
  // A queued run is recorded with all its samples: the rebuilt task must have as many. Each unit's
  // sample is read from the store when it comes (with its start state: `Store.unitStartState`),
  // with the hints of the rebuilt sample at its position (`withRebuiltHints`: the one sample built
  // then), so neither the list nor a map of every sample's hints (~3 MB for 10,000 MetaTool
  // samples, every sample built to make it before the first unit) is held while the worker runs;
  // the ids are read only if a replay checks them.
  if (run.sampleCount !== undefined && prepared.samples.length !== run.sampleCount) {
    throw new InputError(`run ${run.id}: the task rebuilt here has ${prepared.samples.length} samples, the run ${run.sampleCount}; is the data dir the run's?`);
  }
  const ids = sampleIdsOf(prepared.samples);
  const withHints = withRebuiltHints(prepared.samples);
  const engine = { ...runEngine, ...options.engine };
  const session = await openSession(run, task, { ...prepared, samples: [] }, engine, deps, { sampleIds: ids, toCall: async () => ids() });
  const byId = new Map(session.models.map((m) => [m.id, m]));
  return {
    ...session,
    sampleCount: prepared.samples.length,
    withHints,
    model: (id) => byId.get(id),
  };
}

/**
 * The engine settings a run recorded, for a session that continues it (a resume, a queue worker),
 * checked against `engineSettingsSchema`; keys of other versions are kept as written. Every run
 * assay records has the four a session cannot go without; a record that lacks one is refused, not guessed.
 */
export function recordedEngineSettings(run: RunRecord): EngineSettings {
  const { concurrency, timeoutMs, retry, cache } = run.engine;
  if (concurrency === undefined || timeoutMs === undefined || retry === undefined || cache === undefined) {
    throw new InputError(`run ${run.id} does not record its engine settings (concurrency, timeout, retries, cache): this assay cannot resume it`);
  }
  return checkEngineSettings({ ...run.engine, concurrency, timeoutMs, retry, cache }, `run ${run.id}'s engine settings`);
}

/** The ids of a list of samples, read once when first asked for (only a replay model asks). */
function sampleIdsOf(samples: SampleList): () => readonly string[] {
  let ids: readonly string[] | undefined;
  return () => (ids ??= Array.from(sampleIds(samples)));
}

/** What one session's drive of the samples adds to it (see `execute`). */
interface SessionWork {
  readonly task: Task;
  readonly samples: SamplesByPosition;
  readonly retryErrors: boolean;
  /** Makes the samples ready just ahead of their calls: a new run's stored, a resumed run's read from the store. */
  readonly ahead?: SamplesAhead;
  /** This process's lease on the run: lost, it stops the run like an interrupt; released at the end with the final status. */
  readonly lease: HeldLease;
}

/** Calls the session's models on its samples, then ends the session: the lease released with the final status, the models closed; returns the summary. */
async function execute(session: RunSession, deps: RunDependencies, work: SessionWork): Promise<RunSummary> {
  const { run } = session;
  let status: RunRecord['status'] = 'failed';
  let failFastStops: readonly FailFastStop[] = [];
  /** The store refused a write for want of space or write access: the run is interrupted, not failed. */
  let storeFailure: StoreFailureError | undefined;
  const stops = [work.lease.lost, ...(deps.stop ? [deps.stop] : [])];
  const stop = stops.length === 1 ? work.lease.lost : AbortSignal.any(stops);
  /** Whether the drive ended with the run's end to tell (a summary to read), rather than with an error. */
  let ended = false;
  /** The models closing while that summary is read. */
  let closing: Promise<void> | undefined;
  /** The summary's pages read as the calls finish with them: the end reads the rest. */
  const summary = new SummaryAhead(deps.store, run, work.task);
  try {
    const outcome = await executeSamples(session, {
      samples: work.samples,
      retryErrors: work.retryErrors,
      ...(work.ahead ? { sampleReady: work.ahead.ready.bind(work.ahead) } : {}),
      ...(deps.signal ? { signal: deps.signal } : {}),
      stop,
      onFinal: summary,
      // Once per sample: `withFields`, not `{ ...e, runId }` (a leading spread costs the object a map of its own on Node 20).
      ...(deps.onProgress ? { onProgress: (e: ProgressEvent) => deps.onProgress?.(withFields(e, { runId: run.id })) } : {}),
    });
    status = outcome.interrupted ? 'interrupted' : 'finished';
    if (outcome.stoppedBy !== undefined) {
      deps.onWarning?.(`stopped: ${outcome.stoppedBy}; the samples in flight were finished. To go on: assay resume ${run.id} --max-cost <more USD>`);
    }
    failFastStops = outcome.failedFast ?? [];
    for (const stop of failFastStops) deps.onWarning?.(describeStop(stop, run.id, run));
    ended = true;
  } catch (error) {
    const failure = storeFailureOf(error);
    if (!failure) throw error;
    status = 'interrupted';
    storeFailure = new StoreFailureError(run.id, failure, false);
  } finally {
    const failing = async (step: () => Promise<unknown>): Promise<void> => {
      // With the store refusing writes, its cleanup may be refused too: the run's end is still told.
      try {
        await step();
      } catch (error) {
        if (!storeFailure || !storeFailureOf(error)) throw error;
      }
    };
    await failing(async () => work.ahead?.settle());
    await session.budget?.settle?.();
    // The status goes with the release: a process that lost the lease leaves it to the new holder.
    // So do the models stopped early, so that show and runs can say later why and what to fix.
    await failing(async () => {
      await work.lease.release({ status, failFastStops });
      if (storeFailure) storeFailure = new StoreFailureError(run.id, storeFailure.failure, true);
    });
    if (ended) {
      // The models' connections close while the summary is read: sockets to shut down beside CPU work.
      closing = session.close();
      closing.catch(() => undefined);
    } else await session.close();
  }
  try {
    if (storeFailure) throw storeFailure;
    return await summary.finish(withRecordedStops({ ...run, status }, failFastStops));
  } finally {
    await closing;
  }
}
