import { setMaxListeners } from 'node:events';
import { describeError, type GenerateRequest, type GenerateSettings, type Sample, type Score, type Transcript } from '../core/index.js';
import type { PreparedTask } from '../benchmarks/task.js';
import type { CallOutcome, Model } from '../models/middleware/model.js';
import type { CallRecord, ResultRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import type { RunBudget } from './budget.js';
import { FailFast, type FailedCall, type FailFastStop } from './fail-fast.js';
import { judgeOutputForRun, type JudgeStage } from './judging.js';
import type { SummarizedResult } from './summary.js';
import { solveSample } from './solving.js';

export interface ProgressEvent {
  readonly modelId: string;
  /** Samples finished in this session (done or error), over all models. */
  readonly finished: number;
  readonly errors: number;
  /** Samples this session has to do, over all models. */
  readonly total: number;
  /** Samples already finished by an earlier session (resume). */
  readonly skipped: number;
}

export interface ExecuteOptions {
  readonly runId: string;
  readonly store: Store;
  readonly prepared: PreparedTask;
  readonly samples: readonly Sample[];
  readonly models: readonly Model[];
  readonly settings: GenerateSettings;
  /** Re-run samples whose stored result is an error. */
  readonly retryErrors: boolean;
  /** Grades the outputs the task cannot score alone; without it their deterministic score stands. */
  readonly judge?: JudgeStage;
  /** The simulated user a task's solver talks to the models under test through (`--user-model`). */
  readonly user?: Model;
  /** Aborts the calls in flight; no new sample starts either. */
  readonly signal?: AbortSignal;
  /** No new sample starts; those in flight finish and are stored (a graceful interrupt, a lost lease). */
  readonly stop?: AbortSignal;
  readonly onProgress?: (event: ProgressEvent) => void;
  /** Also return what the summary needs of each saved result (see `summarizeRun`'s `known`). */
  readonly keepResults?: boolean;
  /**
   * For a run whose samples are stored as it goes (`SampleFeed`): undefined when the sample at
   * this position of `samples` is stored, else a promise that settles once it is.
   */
  readonly sampleStored?: (index: number) => Promise<void> | undefined;
  /** The run's spending cap: once reached, no new sample starts (those in flight finish). */
  readonly budget?: RunBudget;
  /** Stop a model after errors that repeat for every sample (see `FailFast`); default true. */
  readonly failFast?: boolean;
}

export interface ExecuteOutcome {
  readonly finished: number;
  readonly errors: number;
  readonly interrupted: boolean;
  /** Why the run stopped before the end, when its budget stopped it. */
  readonly stoppedBy?: string;
  /** Models (or the judge) stopped after errors that repeat for every sample; their samples left unfinished. */
  readonly failedFast?: readonly FailFastStop[];
  /** With `keepResults`: per model, the results saved in this session by sample id (outputs left out). */
  readonly results?: ReadonlyMap<string, ReadonlyMap<string, SummarizedResult>>;
}

/**
 * Calls every model on every sample not finished yet, scores each output the moment it arrives
 * and stores calls + result in one transaction, so that a crash loses nothing finished and a
 * resume never calls a finished sample again. Each model gets as many workers as its concurrency.
 */
export async function executeSamples(options: ExecuteOptions): Promise<ExecuteOutcome> {
  const { store, samples, models, signal, stop, budget } = options;
  const stopping = (): boolean => Boolean(signal?.aborted) || Boolean(stop?.aborted) || budget?.stopReason !== undefined;
  // Every in-flight call listens to the run's signal (to stop when the run stops): many listeners is normal here.
  if (signal) setMaxListeners(0, signal);
  // Per model, the positions in `samples` still to do.
  const queues: { model: Model; todo: number[] }[] = [];
  const kept = options.keepResults ? new Map<string, Map<string, SummarizedResult>>(models.map((m) => [m.id, new Map()])) : undefined;
  let skipped = 0;
  for (const model of models) {
    const finished = await store.finishedSampleIds(options.runId, model.id, { includeErrors: !options.retryErrors });
    const todo: number[] = [];
    samples.forEach((s, i) => {
      if (!finished.has(s.id)) todo.push(i);
    });
    skipped += samples.length - todo.length;
    queues.push({ model, todo });
  }
  const total = queues.reduce((n, q) => n + q.todo.length, 0);
  let finishedCount = 0;
  let errorCount = 0;
  options.onProgress?.({ modelId: '', finished: 0, errors: 0, total, skipped });
  const failFast = new FailFast(options.failFast ?? true);
  /** Stores a result (its calls were stored before, or go with it) and counts it. */
  const saveResult = async (calls: readonly CallRecord[], result: ResultRecord): Promise<void> => {
    await store.saveOutcome(calls, result);
    // Only what the summary reads: keeping the outputs would hold every raw response until the end.
    kept?.get(result.modelId)?.set(result.sampleId, { sampleId: result.sampleId, status: result.status, score: result.score, error: result.error, cached: result.cached, usage: result.usage, costUsd: result.costUsd });
    finishedCount++;
    if (result.status === 'error') errorCount++;
    options.onProgress?.({ modelId: result.modelId, finished: finishedCount, errors: errorCount, total, skipped });
  };

  /** Stores calls ahead of their sample's result, charged to the budget. */
  const persistCalls = async (records: readonly CallRecord[]): Promise<void> => {
    if (records.length === 0) return;
    budget?.charge(records);
    await store.saveCalls(records);
  };

  /**
   * A sample of a task with its own solver (several calls, in the test and user roles): each call
   * is stored as it is made, then the output is scored (and judged) with the transcript, and the
   * result stored with it. A stop mid-sample leaves it for resume (its calls answer from the cache).
   */
  const solveAndStore = async (model: Model, sample: Sample, context: { sampleId: string; signal?: AbortSignal }): Promise<void> => {
    const solver = options.prepared.solver as NonNullable<PreparedTask['solver']>;
    const solving = await solveSample(solver, sample, { test: model, ...(options.user ? { user: options.user } : {}) }, options.settings, context, { runId: options.runId }, persistCalls);
    if (signal?.aborted) return;
    const released: ResultRecord[] = [];
    for (const role of solving.answered) released.push(...failFast.succeeded(role === 'test' ? model.id : (options.user?.id ?? ''), role));
    let score = solving.output ? scoreSafely(options.prepared, sample, solving.output, solving.transcript) : undefined;
    let judgeError: { kind: string; message: string } | undefined;
    if (solving.output && score && options.judge && options.prepared.gradeWithJudge) {
      const graded = await judgeOutputForRun(options.judge, options.prepared, sample, solving.output, context, { runId: options.runId, modelId: model.id, save: persistCalls }, solving.transcript);
      if (signal?.aborted) return;
      score = graded.score;
      judgeError = graded.error;
      if (graded.freshSuccess) released.push(...failFast.succeeded(options.judge.model.id, 'judge'));
    }
    const error = judgeError ?? solving.error ?? (solving.output ? null : { kind: 'unknown', message: 'the solver gave no output and no error' });
    const result: ResultRecord = {
      runId: options.runId,
      sampleId: sample.id,
      modelId: model.id,
      ...(error || !score ? { status: 'error' as const, output: null, score: null, error: error ?? { kind: 'unknown', message: 'no score' } } : { status: 'done' as const, output: solving.output, score, error: null }),
      cached: solving.cached,
      attempts: solving.attempts,
      latencyMs: solving.latencyMs,
      usage: solving.usage,
      costUsd: solving.costUsd,
      finishedAt: new Date().toISOString(),
      transcript: solving.transcript,
    };
    const failed = judgeError ? failedCall(model.id, options.judge?.model.id, judgeError, judgeError) : solving.error ? solving.failedCall : undefined;
    const verdict = failed ? failFast.failed(failed, result) : { hold: false, release: [] };
    released.push(...verdict.release);
    // Its calls are stored already: a held sample simply has no result yet (see below).
    if (!verdict.hold) await saveResult([], result);
    for (const r of released) await saveResult([], r);
  };

  const runQueue = async (model: Model, todo: readonly number[]): Promise<void> => {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < todo.length && !stopping() && !failFast.stopped(model.id)) {
        const position = todo[next++] as number;
        const sample = samples[position] as Sample;
        const stored = options.sampleStored?.(position);
        if (stored) {
          await stored;
          // The stop came while this sample was being stored: it has not started, leave it for resume.
          if (stopping() || failFast.stopped(model.id)) return;
        }
        if (budget?.refresh) {
          // A fleet's budget: what the other workers spent counts before this sample starts.
          try {
            await budget.refresh(stop && signal ? AbortSignal.any([signal, stop]) : (signal ?? stop));
          } catch (error) {
            // Aborted by the stop (Redis may be down and the user gave up waiting); anything else is a fault to report.
            if (!stopping()) throw error;
          }
          if (stopping() || failFast.stopped(model.id)) return;
        }
        const context = { sampleId: sample.id, ...(signal ? { signal } : {}) };
        if (options.prepared.solver) {
          await solveAndStore(model, sample, context);
          continue;
        }
        const request = requestFor(sample, options.settings);
        const outcome = await model.generate(request, context);
        // A call cut short because the run is stopping is not a finished sample: leave it for resume.
        if (signal?.aborted && !outcome.output) return;
        let score = outcome.output ? scoreSafely(options.prepared, sample, outcome.output) : undefined;
        let calls = toCallRecords(options.runId, model.id, sample.id, outcome, request);
        let judgeError: { kind: string; message: string } | undefined;
        // Results of an earlier error streak this sample shows were about their own samples.
        const released: ResultRecord[] = outcome.output && !outcome.cached ? [...failFast.succeeded(model.id, 'test')] : [];
        if (outcome.output && score && options.judge && options.prepared.gradeWithJudge) {
          // The judge's calls are stored as they are made, the model's own just before the first:
          // a kill -9 mid-judgment loses no paid call (the resume answers them from the cache). An
          // output graded without a judge call (an exact match) keeps its call for the result's transaction.
          const graded = await judgeOutputForRun(options.judge, options.prepared, sample, outcome.output, context, { runId: options.runId, modelId: model.id, save: persistCalls, ahead: calls });
          calls = [...graded.calls];
          if (signal?.aborted) {
            // A judgment cut short by the stop would be a false no-verdict: leave the sample for
            // resume, but keep the calls made (paid for): resume answers them from the cache.
            budget?.charge(calls);
            await store.saveCalls(calls);
            for (const r of released) await saveResult([], r);
            return;
          }
          score = graded.score;
          judgeError = graded.error;
          if (graded.freshSuccess) released.push(...failFast.succeeded(options.judge.model.id, 'judge'));
        }
        budget?.charge(calls);
        const result = judgeError ? toJudgeErrorResult(options.runId, model.id, sample, outcome, judgeError) : toResult(options.runId, model.id, sample, outcome, score);
        const failed = result.error ? failedCall(model.id, options.judge?.model.id, judgeError, result.error) : undefined;
        const verdict = failed ? failFast.failed(failed, result) : { hold: false, release: [] };
        released.push(...verdict.release);
        // A held sample keeps its calls (the ledger, the cache, the spend) but no result yet: if its
        // streak stops the model, it stays unfinished and a plain resume calls it again.
        if (verdict.hold) await store.saveCalls(calls);
        else await saveResult(calls, result);
        for (const r of released) await saveResult([], r);
      }
    };
    const workers = Math.max(1, Math.min(model.settings.concurrency, todo.length));
    await Promise.all(Array.from({ length: workers }, worker));
  };

  await Promise.all(queues.map((q) => runQueue(q.model, q.todo)));
  // Streaks still open at the end stopped nothing: their samples' errors are their results.
  for (const r of failFast.drain()) await saveResult([], r);
  const stoppedBy = finishedCount < total ? budget?.stopReason : undefined;
  // A stop always leaves its streak's samples unfinished, so it always interrupts the run.
  const failedFast = failFast.stops;
  return {
    finished: finishedCount,
    errors: errorCount,
    interrupted: stoppedBy !== undefined || failedFast.length > 0 || ((Boolean(signal?.aborted) || Boolean(stop?.aborted)) && finishedCount < total),
    ...(stoppedBy !== undefined ? { stoppedBy } : {}),
    ...(failedFast.length > 0 ? { failedFast } : {}),
    ...(kept ? { results: kept } : {}),
  };
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
    messages: sample.input.map((message) => ({ ...message })),
    ...(sample.tools ? { tools: sample.tools } : {}),
    settings,
    ...(sample.hints ? { hints: sample.hints } : {}),
  };
}

/** Scores an output; a scorer that throws gives a no-verdict with the reason, never a crash. */
export function scoreSafely(prepared: PreparedTask, sample: Sample, output: NonNullable<CallOutcome['output']>, transcript?: Transcript): Score {
  try {
    return prepared.score(sample, output, transcript);
  } catch (error) {
    // A scorer bug must not crash the run nor pass silently: the sample gets no verdict, with the reason.
    return { value: null, explanation: `scorer failed: ${describeError(error)}` };
  }
}

function toResult(runId: string, modelId: string, sample: Sample, outcome: CallOutcome, score: Score | undefined): ResultRecord {
  const base = {
    runId,
    sampleId: sample.id,
    modelId,
    cached: outcome.cached,
    attempts: outcome.attempts.length,
    latencyMs: outcome.latencyMs,
    usage: outcome.usage,
    costUsd: outcome.costUsd,
    finishedAt: new Date().toISOString(),
  };
  if (outcome.output && score) return { ...base, status: 'done', output: outcome.output, score, error: null };
  return { ...base, status: 'error', output: null, score: null, error: outcome.error ?? { kind: 'unknown', message: 'no output and no error' } };
}

/** A sample whose output the judge could not grade: an error (retryable), its output kept in the calls table and the cache. */
function toJudgeErrorResult(runId: string, modelId: string, sample: Sample, outcome: CallOutcome, error: { kind: string; message: string }): ResultRecord {
  return toResult(runId, modelId, sample, { ...outcome, output: null, error }, undefined);
}

function toCallRecords(runId: string, modelId: string, sampleId: string, outcome: CallOutcome, request: GenerateRequest): CallRecord[] {
  // The prompt is the sample's input, which the store holds already: the call refers to it.
  const stored = { tools: request.tools, settings: request.settings };
  return outcome.attempts.map((a) => ({
    runId,
    sampleId,
    modelId,
    role: 'test' as const,
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
