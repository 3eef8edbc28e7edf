import { describeError, mapPacked, plainMessage, withFields, type GenerateRequest, type GenerateSettings, type Sample, type Score, type Transcript } from '../core/index.js';
import type { PreparedTask } from '../benchmarks/task.js';
import type { CallContext, CallOutcome, Model } from '../models/middleware/model.js';
import type { CallRecord, ResultRecord } from '../store/records.js';
import type { RunSession } from './run-session.js';
import type { FailFast, FailedCall } from './fail-fast.js';
import { judgeOutputForRun } from './judging.js';
import { solveSample } from './solving.js';
import { repeatOf } from './role-calls.js';
import { scoreSafely } from '../benchmarks/score-safely.js';

/**
 * What one sample's work needs, whoever drives it: the in-process run (`executeSamples`, many
 * samples per model in worker pools) and a queue worker (`queue/`, one job per unit of work):
 * the session's parts it reads (its store, prepared task, settings, judge, simulated user and
 * budget, charged with every call stored), and the driver's own.
 */
export interface SampleStage extends Pick<RunSession, 'store' | 'prepared' | 'settings' | 'judge' | 'user' | 'budget'> {
  readonly runId: string;
  /** How many times the model under test answers each sample (`RunRecord.repeats`; absent: once) and the run's seed their seeds start from. */
  readonly repeats?: { readonly count: number; readonly seed: number };
  /** Aborts the calls in flight: a sample cut short is left unfinished (its paid calls stored). */
  readonly signal?: AbortSignal;
  /**
   * Ends the calls' waits (retries, rate limits) but not requests in flight (see `CallContext`):
   * the run's stop with `signal` folded in. An error that ends a sample once it is aborted says
   * nothing of the sample: the sample is left unfinished, as with `signal`.
   */
  readonly waitSignal?: AbortSignal;
  /** Holds the results of an error streak until it is known whether it stops the model. */
  readonly failFast: FailFast;
  /**
   * Stores a finished sample's result, with those of its calls not stored yet, in one
   * transaction. The driver decides what "stored" means: counted and reported in process; in a
   * queue worker, an error while the job has attempts left is not final (its calls only). It also
   * decides whether the promise waits for the write: in process it does not (the sample's slot
   * takes the next sample while the store writes, and the drive waits for every write before it
   * ends); the sample's work is over once it is called, whenever its promise settles.
   */
  saveResult(calls: readonly CallRecord[], result: ResultRecord): Promise<void>;
}

/**
 * One sample on one model: call it (or run the task's solver), score the output the moment it
 * arrives, grade it with the judge when the task asks, and store calls and result. Calls that
 * must survive a stop mid-sample (a judge's, a solver's turns) are stored as they are made.
 * Returns without a result when the run's signal cut the work short.
 */
export async function workOnSample(given: SampleStage, model: Model, sample: Sample, repeat = 0): Promise<void> {
  // A repeat asks with its own seed (so its own cache key) and stores its own result.
  // (Held results of an error streak are saved later by whoever releases them: the repeat is in the record.)
  const stage: SampleStage = given.repeats && given.repeats.count > 1 ? withFields(given, { settings: repeatSettings(given.settings, given.repeats.seed, repeat) }) : given;
  const save = callsAhead(stage);
  const context: { sampleId: string; signal?: AbortSignal; waitSignal?: AbortSignal } = { sampleId: sample.id };
  if (stage.signal) context.signal = stage.signal;
  if (stage.waitSignal) context.waitSignal = stage.waitSignal;
  if (stage.prepared.solver) return solveAndStore(stage, model, sample, context, repeat);
  const request = requestFor(sample, stage.settings);
  const outcome = await model.generate(request, context);
  // A call cut short because the run is stopping is not a finished sample: leave it for resume.
  if (!outcome.output && stoppedShort(stage, true)) return;
  let score = outcome.output ? scoreSafely(stage.prepared, sample, outcome.output) : undefined;
  let calls = toCallRecords(stage.runId, model.id, sample.id, outcome, request, repeat);
  let judgeError: { kind: string; message: string } | undefined;
  // Results of an earlier error streak this sample shows were about their own samples.
  const released: ResultRecord[] = outcome.output && !outcome.cached ? [...stage.failFast.succeeded(model.id, 'test')] : [];
  if (outcome.output && score && stage.judge && stage.prepared.gradeWithJudge) {
    // The judge's calls are stored as they are made, the model's own just before the first:
    // a kill -9 mid-judgment loses no paid call (the resume answers them from the cache). An
    // output graded without a judge call (an exact match) keeps its call for the result's transaction.
    const graded = await judgeOutputForRun(stage.judge, stage.prepared, sample, outcome.output, context, { runId: stage.runId, modelId: model.id, repeat, save, ahead: calls });
    calls = [...graded.calls];
    if (stoppedShort(stage, graded.error !== undefined)) {
      // A judgment cut short by the stop would be a false no-verdict: leave the sample for
      // resume, but keep the calls made (paid for): resume answers them from the cache.
      stage.budget?.charge(calls);
      await stage.store.saveCalls(calls);
      for (const r of released) await stage.saveResult([], r);
      return;
    }
    score = graded.score;
    judgeError = graded.error;
    if (graded.freshSuccess) released.push(...stage.failFast.succeeded(stage.judge.model.id, 'judge'));
  }
  stage.budget?.charge(calls);
  const result = withRepeat(judgeError ? toJudgeErrorResult(stage.runId, model.id, sample, outcome, judgeError) : toResult(stage.runId, model.id, sample, outcome, score), repeat);
  const failed = result.error ? failedCall(model.id, stage.judge?.model.id, judgeError, result.error) : undefined;
  const verdict = failed ? stage.failFast.failed(failed, result) : { hold: false, release: [] };
  released.push(...verdict.release);
  // A held sample keeps its calls (the ledger, the cache, the spend) but no result yet: if its
  // streak stops the model, it stays unfinished and a plain resume calls it again.
  if (verdict.hold) await stage.store.saveCalls(calls);
  else await stage.saveResult(calls, result);
  for (const r of released) await stage.saveResult([], r);
}

/**
 * The sampling settings of repeat `repeat` of a run that asks the model under test several times
 * per sample: seed = (the run's settings' seed, else the run's seed) + repeat, so every repeat is
 * a request of its own — its own seed on the wire and its own call-cache key, since the key hashes
 * the settings. A run that asks once keeps its settings as they are (its calls and cache keys are
 * those of every run before repeats); this is called only when it asks more than once.
 */
export function repeatSettings(settings: GenerateSettings, runSeed: number, repeat: number): GenerateSettings {
  return withFields(settings, { seed: (settings.seed ?? runSeed) + repeat });
}

/** The result as repeat `repeat`'s: repeat 0 leaves the field out, as a run without repeats stores it. */
function withRepeat(result: ResultRecord, repeat: number): ResultRecord {
  if (repeat === 0) return result;
  return withFields(result, { repeat });
}

/**
 * Whether the run's stop cut this sample's work short: an abort always; the graceful stop when the
 * work ended in error (a wait it ended, a retry it prevented): such an error is not the sample's.
 */
function stoppedShort(stage: SampleStage, failed: boolean): boolean {
  return Boolean(stage.signal?.aborted) || (failed && Boolean(stage.waitSignal?.aborted));
}

/** Stores calls ahead of their sample's result, charged to the budget. */
function callsAhead(stage: SampleStage): (records: readonly CallRecord[]) => Promise<void> {
  return async (records) => {
    if (records.length === 0) return;
    stage.budget?.charge(records);
    await stage.store.saveCalls(records);
  };
}

/**
 * A sample of a task with its own solver (several calls, in the test and user roles): each call
 * is stored as it is made, then the output is scored (and judged) with the transcript, and the
 * result stored with it. A stop mid-sample leaves it for resume (its calls answer from the cache).
 */
async function solveAndStore(stage: SampleStage, model: Model, sample: Sample, context: CallContext, repeat: number): Promise<void> {
  const save = callsAhead(stage);
  const solver = stage.prepared.solver as NonNullable<PreparedTask['solver']>;
  const solving = await solveSample(solver, sample, { test: model, ...(stage.user ? { user: stage.user } : {}) }, stage.settings, context, { runId: stage.runId, repeat }, save);
  if (stoppedShort(stage, solving.error !== null)) return;
  const released: ResultRecord[] = [];
  for (const role of solving.answered) released.push(...stage.failFast.succeeded(role === 'test' ? model.id : (stage.user?.id ?? ''), role));
  let score = solving.output ? scoreSafely(stage.prepared, sample, solving.output, solving.transcript) : undefined;
  let judgeError: { kind: string; message: string } | undefined;
  if (solving.output && score && stage.judge && stage.prepared.gradeWithJudge) {
    const graded = await judgeOutputForRun(stage.judge, stage.prepared, sample, solving.output, context, { runId: stage.runId, modelId: model.id, repeat, save }, solving.transcript);
    if (stoppedShort(stage, graded.error !== undefined)) return;
    score = graded.score;
    judgeError = graded.error;
    if (graded.freshSuccess) released.push(...stage.failFast.succeeded(stage.judge.model.id, 'judge'));
  }
  const error = judgeError ?? solving.error ?? (solving.output ? null : { kind: 'unknown', message: 'the solver gave no output and no error' });
  const result: ResultRecord = {
    runId: stage.runId,
    sampleId: sample.id,
    modelId: model.id,
    ...(repeat > 0 ? { repeat } : {}),
    ...(error || !score ? { status: 'error' as const, output: null, score: null, error: error ?? { kind: 'unknown', message: 'no score' } } : { status: 'done' as const, output: solving.output, score, error: null }),
    cached: solving.cached,
    attempts: solving.attempts,
    latencyMs: solving.latencyMs,
    usage: solving.usage,
    costUsd: solving.costUsd,
    finishedAt: new Date().toISOString(),
    transcript: solving.transcript,
  };
  const failed = judgeError ? failedCall(model.id, stage.judge?.model.id, judgeError, judgeError) : solving.error ? solving.failedCall : undefined;
  const verdict = failed ? stage.failFast.failed(failed, result) : { hold: false, release: [] };
  released.push(...verdict.release);
  // Its calls are stored already: a held sample simply has no result yet (see below).
  if (!verdict.hold) await stage.saveResult([], result);
  for (const r of released) await stage.saveResult([], r);
}


/**
 * Whose call failed, as `FailFast` counts it: the judge's when the judge failed (its kind without
 * the `judge-` prefix a model-graded scorer gives it), else the model's.
 */
function failedCall(modelId: string, judgeId: string | undefined, judgeError: { kind: string; message: string } | undefined, error: { kind: string; message: string }): FailedCall {
  if (judgeError && judgeId) return { actor: judgeId, role: 'judge', kind: judgeError.kind.replace(/^judge-/, ''), message: judgeError.message };
  return { actor: modelId, role: 'test', kind: error.kind, message: error.message };
}

/**
 * The request a sample makes: its messages and tools, the run's settings, and hints for baselines.
 * Messages are copied into plain objects, so a prompt that a task renders on read (to keep memory
 * flat) is rendered once per call here, not again by every reader (hashing, storing, sending).
 */
export function requestFor(sample: Sample, settings: GenerateSettings): GenerateRequest {
  return {
    messages: mapPacked(sample.input, plainMessage),
    ...(sample.tools ? { tools: sample.tools } : {}),
    settings,
    ...(sample.hints ? { hints: sample.hints } : {}),
  };
}

// Written as one literal, not `{ ...base, status, … }`: on Node 20's V8 every property added after
// a spread gives the object a map of its own (~20 µs and ~2 KB per result, measured).
function toResult(runId: string, modelId: string, sample: Sample, outcome: CallOutcome, score: Score | undefined): ResultRecord {
  const done = outcome.output !== null && score !== undefined;
  return {
    runId,
    sampleId: sample.id,
    modelId,
    cached: outcome.cached,
    attempts: outcome.attempts.length,
    latencyMs: outcome.latencyMs,
    usage: outcome.usage,
    costUsd: outcome.costUsd,
    finishedAt: new Date().toISOString(),
    status: done ? 'done' : 'error',
    output: done ? outcome.output : null,
    score: done ? (score as Score) : null,
    error: done ? null : (outcome.error ?? { kind: 'unknown', message: 'no output and no error' }),
  } as ResultRecord;
}

/** A sample whose output the judge could not grade: an error (retryable), its output kept in the calls table and the cache. */
function toJudgeErrorResult(runId: string, modelId: string, sample: Sample, outcome: CallOutcome, error: { kind: string; message: string }): ResultRecord {
  return toResult(runId, modelId, sample, withFields(outcome, { output: null, error }), undefined);
}

function toCallRecords(runId: string, modelId: string, sampleId: string, outcome: CallOutcome, request: GenerateRequest, repeat: number): CallRecord[] {
  // The prompt is the sample's input, which the store holds already: the call refers to it.
  const stored = { tools: request.tools, settings: request.settings };
  return outcome.attempts.map((a) => ({
    runId,
    sampleId,
    modelId,
    role: 'test' as const,
    ...repeatOf(repeat),
    attempt: a.attempt,
    cacheKey: outcome.cacheKey,
    request: stored,
    messagesFromSample: true,
    output: a.output,
    error: a.error,
    usage: a.output?.usage ?? {},
    costUsd: a.costUsd,
    latencyMs: a.latencyMs,
    startedAt: a.startedAt,
  }));
}
