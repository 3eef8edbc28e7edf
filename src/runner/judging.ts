import { describeError, noVerdict, type GenerateRequest, type GenerateResult, type RoleGenerate, type Sample, type Score, type SeededJudgeSettings, type Transcript } from '../core/index.js';
import type { PreparedTask } from '../benchmarks/task.js';
import { judgeOutput, type JudgeCall, type Judgment } from '../judges/index.js';
import type { CallContext, CallOutcome, Model } from '../models/middleware/model.js';
import type { CallRecord } from '../store/records.js';
import type { DeterministicMetadata, JudgeMetadata } from './judge-metadata.js';
import { roleCallRecords, type MadeCall } from './role-calls.js';

/** The judge of a run: a model in the judge role (its own middleware: cache, limits, retries) and how it grades. */
export interface JudgeStage {
  readonly model: Model;
  readonly settings: SeededJudgeSettings;
}

interface Graded {
  readonly score: Score;
  readonly calls: readonly JudgeCall[];
  /**
   * Set when the judge could not be reached (no verdict, and a judge call failed after the
   * middleware's retries): the sample then ends in error rather than "no verdict", so that
   * `--retry-errors` grades it again (the model's own call comes back from the cache).
   */
  readonly error?: { readonly kind: string; readonly message: string };
}

/**
 * Sends an output to the judge when the task says its deterministic score is not final, and
 * returns the judged score. The judge's verdict replaces the value; the deterministic score and
 * the judgment's audit trail go in the metadata. A task whose judge request throws gets no verdict
 * with the reason (never a crash, never a silent fail).
 */
async function gradeWithJudge(stage: JudgeStage, prepared: PreparedTask, sample: Sample, output: GenerateResult, score: Score, context: CallContext): Promise<Graded> {
  let request;
  try {
    request = prepared.judgeRequest?.(sample, output, score);
  } catch (error) {
    return { score: noVerdict(`judge request could not be built: ${describeError(error)}`, score.answer), calls: [] };
  }
  if (!request) return { score, calls: [] };
  const judgment = await judgeOutput(stage.model, request, stage.settings, context);
  const failed = judgment.verdict === null ? judgment.calls.find((c) => c.outcome.error !== null) : undefined;
  const graded = { score: judgedScore(stage.model.id, score, judgment), calls: judgment.calls };
  if (!failed?.outcome.error) return graded;
  const { kind, message } = failed.outcome.error;
  return { ...graded, error: { kind: `judge-${kind}`, message: `the judge ${stage.model.id} failed: ${message}` } };
}

function judgedScore(judgeModel: string, score: Score, judgment: Judgment): Score {
  let inputTokens = 0, outputTokens = 0, attempts = 0;
  let cost: number | null = 0;
  const responses = new Map<number, string>();
  for (const call of judgment.calls) {
    attempts += Math.max(1, call.outcome.attempts.length);
    inputTokens += call.outcome.usage.inputTokens ?? 0;
    outputTokens += call.outcome.usage.outputTokens ?? 0;
    cost = cost === null || call.outcome.costUsd === null ? null : cost + call.outcome.costUsd;
    // The last attempt of each repeat is the one its vote was read from.
    responses.set(call.repeat, call.outcome.output?.text ?? `(no response: ${call.outcome.error?.message ?? call.reason})`);
  }
  const judge: JudgeMetadata = {
    model: judgeModel,
    rubric: judgment.rubricId,
    rubricSha256: judgment.rubricSha256,
    votes: judgment.votes,
    agreement: judgment.agreement,
    responses: [...responses.entries()].sort(([a], [b]) => a - b).map(([, text]) => text),
    calls: attempts,
    inputTokens,
    outputTokens,
    costUsd: cost,
  };
  const deterministic: DeterministicMetadata = { value: score.value, ...(score.explanation ? { explanation: score.explanation } : {}) };
  return {
    value: judgment.verdict,
    ...(score.answer !== undefined ? { answer: score.answer } : {}),
    explanation: judgment.explanation,
    metadata: { ...score.metadata, deterministic, judge },
  };
}

/** One call a model-graded scorer made through the judge role, with its transcript label. */
interface StepCall {
  readonly step: string;
  readonly request: GenerateRequest;
  readonly outcome: CallOutcome;
}

/** What grading through the judge role gave, with every call made (stored with the sample). */
interface RoleGraded {
  readonly score: Score;
  /** Whether some call was answered by the judge itself (not the cache). */
  readonly freshSuccess: boolean;
  readonly records: (runId: string, modelId: string, sampleId: string) => CallRecord[];
  readonly error?: { readonly kind: string; readonly message: string };
}

/**
 * Grades an output with a task's model-graded scorer (`PreparedTask.gradeWithJudge`, several
 * judge calls per sample): the scorer gets a `generate` restricted to the judge role, each call
 * goes through the judge's middleware (cache, retries, limits, cost) and is kept with its step
 * label, to be stored with the sample. The judge's totals go in `metadata.judge` (as for a rubric
 * judgment), so summaries count the judge's calls, tokens and cost. A scorer that throws gives no
 * verdict with the reason; a call that failed outright makes the sample an error (retryable).
 */
async function gradeThroughJudgeRole(
  stage: JudgeStage,
  prepared: PreparedTask,
  sample: Sample,
  output: GenerateResult,
  context: CallContext,
  persist?: Persist,
  transcript?: Transcript,
): Promise<RoleGraded> {
  const made: StepCall[] = [];
  let stored = 0;
  let attempts = 0;
  const generate: RoleGenerate = async (role, request, step) => {
    if (role !== 'judge') throw new Error(`a scorer may call the judge role only, not ${role}`);
    const outcome = await stage.model.generate(request, context);
    made.push({ step, request, outcome });
    if (persist) {
      // Stored as it is made: a kill -9 during a later step loses no paid call (resume answers it from the cache).
      const records = judgeRoleRecords(persist.runId, persist.modelId, sample.id, stage.model.id, [{ step, request, outcome }], attempts + 1);
      attempts += records.length;
      stored = made.length;
      await persist.save(records);
    }
    return { output: outcome.output, error: outcome.error };
  };
  let graded: Awaited<ReturnType<NonNullable<PreparedTask['gradeWithJudge']>>>;
  try {
    graded = await (prepared.gradeWithJudge as NonNullable<PreparedTask['gradeWithJudge']>)(sample, output, generate, stage.settings, transcript);
  } catch (error) {
    graded = { score: noVerdict(`the judge's scorer failed: ${describeError(error)}`) };
  }
  // What was not stored yet (all of it without `persist`).
  const records = (runId: string, modelId: string, sampleId: string): CallRecord[] => judgeRoleRecords(runId, modelId, sampleId, stage.model.id, made.slice(stored), attempts + 1);
  const judge = judgeTotals(stage.model.id, made);
  const freshSuccess = made.some(({ outcome }) => outcome.output !== null && !outcome.cached);
  if ('error' in graded) return { score: noVerdict(graded.error.message), records, freshSuccess, error: graded.error };
  return { score: { ...graded.score, metadata: { ...graded.score.metadata, judge } }, records, freshSuccess };
}

/** Where a model-graded scorer's calls are stored as they are made (and charged to the run's budget). */
export interface Persist {
  readonly runId: string;
  readonly modelId: string;
  save(records: readonly CallRecord[]): Promise<void>;
}

/** The judge's calls, tokens and cost over a model-graded scorer's calls (`metadata.judge`). */
function judgeTotals(model: string, made: readonly StepCall[]): Pick<JudgeMetadata, 'model' | 'calls' | 'inputTokens' | 'outputTokens' | 'costUsd'> {
  let calls = 0, inputTokens = 0, outputTokens = 0;
  let cost: number | null = 0;
  for (const { outcome } of made) {
    calls += Math.max(1, outcome.attempts.length);
    inputTokens += outcome.usage.inputTokens ?? 0;
    outputTokens += outcome.usage.outputTokens ?? 0;
    cost = cost === null || outcome.costUsd === null ? null : cost + outcome.costUsd;
  }
  return { model, calls, inputTokens, outputTokens, costUsd: cost };
}

/** Calls in the judge role as stored call records: `actor` the judge, `modelId` the model whose output was graded (see `roleCallRecords`). */
function judgeRoleRecords(runId: string, modelId: string, sampleId: string, judgeId: string, made: readonly MadeCall[], firstAttempt = 1): CallRecord[] {
  return roleCallRecords({ runId, modelId, sampleId, role: 'judge', actor: judgeId }, made, firstAttempt);
}

/** What the judge stage gave one output, whichever way the task is judged: the score, the judge's calls as records, an error. */
export interface JudgedOutput {
  readonly score: Score;
  readonly calls: readonly CallRecord[];
  /** Whether some judge call was answered by the judge itself (not the cache): it shows the judge works (fail-fast). */
  readonly freshSuccess: boolean;
  readonly error?: { readonly kind: string; readonly message: string };
}

/**
 * The run's judge stage for one output: a task with a model-graded scorer (`gradeWithJudge`,
 * several calls) is graded through the judge role; a task with a rubric (`judgeRequest`) gets one
 * rubric judgment (repeats and re-asks included); the judge's calls come back as call records.
 */
export async function judgeOutputForRun(
  stage: JudgeStage,
  prepared: PreparedTask,
  sample: Sample,
  output: GenerateResult,
  score: Score,
  context: CallContext,
  ids: { readonly runId: string; readonly modelId: string },
  save?: Persist['save'],
  transcript?: Transcript,
): Promise<JudgedOutput> {
  if (prepared.gradeWithJudge) {
    const graded = await gradeThroughJudgeRole(stage, prepared, sample, output, context, save ? { ...ids, save } : undefined, transcript);
    return { score: graded.score, calls: graded.records(ids.runId, ids.modelId, sample.id), freshSuccess: graded.freshSuccess, ...(graded.error ? { error: graded.error } : {}) };
  }
  const graded = await gradeWithJudge(stage, prepared, sample, output, score, context);
  const freshSuccess = graded.calls.some((c) => c.outcome.output !== null && !c.outcome.cached);
  return { score: graded.score, calls: judgeRoleRecords(ids.runId, ids.modelId, sample.id, stage.model.id, graded.calls), freshSuccess, ...(graded.error ? { error: graded.error } : {}) };
}
