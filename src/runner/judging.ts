import { describeError, noVerdict, type GenerateRequest, type GenerateResult, type JudgeRunSettings, type RoleGenerate, type Sample, type Score, type Transcript } from '../core/index.js';
import type { PreparedTask } from '../benchmarks/task.js';
import type { CallContext, CallOutcome, Model } from '../models/middleware/model.js';
import type { CallRecord } from '../store/records.js';
import { withJudgeTotals, type JudgeTotals } from '../judges/judge-metadata.js';
import { roleCallRecords, type MadeCall } from './role-calls.js';

/** The judge of a run: a model in the judge role (its own middleware: cache, limits, retries) and how it grades. */
export interface JudgeStage {
  readonly model: Model;
  readonly settings: JudgeRunSettings;
}

/** One call a model-graded scorer made through the judge role, with its transcript label. */
interface StepCall {
  readonly step: string;
  readonly request: GenerateRequest;
  readonly outcome: CallOutcome;
}

/** Where the judge's calls are stored as they are made (and charged to the run's budget). */
export interface JudgePersist {
  readonly runId: string;
  /** The model under test whose output is graded. */
  readonly modelId: string;
  /** Which of its answers (`CallRecord.repeat`); absent or 0: the first (or only). */
  readonly repeat?: number;
  save(records: readonly CallRecord[]): Promise<void>;
  /**
   * Calls of the sample not stored yet (the model under test's own): stored just before the
   * judge's first call, so a kill -9 while the judge grades loses no paid call; when the scorer
   * calls no judge (an exact match), they come back in {@link JudgedOutput.calls}, to be stored
   * with the result in one transaction.
   */
  readonly ahead?: readonly CallRecord[];
}

/** What the judge stage gave one output: the score, the calls not stored yet, an error. */
export interface JudgedOutput {
  readonly score: Score;
  /** Calls not stored yet: `ahead`, when no judge call was made. */
  readonly calls: readonly CallRecord[];
  /** Whether some judge call was answered by the judge itself (not the cache): it shows the judge works (fail-fast). */
  readonly freshSuccess: boolean;
  /**
   * Set when the judge could not be reached (a judge call failed after the middleware's retries):
   * the sample then ends in error rather than no verdict, so that `--retry-errors` grades it
   * again (the model's own call comes back from the cache).
   */
  readonly error?: { readonly kind: string; readonly message: string };
}

/**
 * The run's judge stage for one output — the one path for judging: the task's model-graded
 * scorer (`PreparedTask.gradeWithJudge`) grades it with a `generate` restricted to the judge role.
 * Each call goes through the judge's middleware (cache, retries, limits, cost) and is stored with
 * the sample as it is made, with its step label, `role` judge and `actor` the judge. When the
 * scorer called the judge, the judge's model, calls, tokens and cost go in `metadata.judge`
 * (after the model and before the totals, whatever audit trail the scorer put there itself: a
 * rubric judgment's rubric, votes, agreement and replies), so summaries count the judge's work; a
 * score given without any judge call (an exact match) is stored as the scorer gave it. A scorer
 * that throws gives no verdict with the reason; a judge call that failed outright makes the
 * sample an error (retryable).
 */
export async function judgeOutputForRun(
  stage: JudgeStage,
  prepared: PreparedTask,
  sample: Sample,
  output: GenerateResult,
  context: CallContext,
  persist: JudgePersist,
  transcript?: Transcript,
): Promise<JudgedOutput> {
  const made: StepCall[] = [];
  let attempts = 0;
  let ahead: Promise<void> | undefined;
  const generate: RoleGenerate = async (role, request, step) => {
    if (role !== 'judge') throw new Error(`a scorer may call the judge role only, not ${role}`);
    // The sample's own calls go first, once, before the judge is asked anything.
    ahead ??= persist.save(persist.ahead ?? []);
    await ahead;
    const outcome = await stage.model.generate(request, context);
    made.push({ step, request, outcome });
    // Stored as it is made: a kill -9 during a later step loses no paid call (resume answers it from the cache).
    const records = judgeRoleRecords(persist, sample.id, stage.model.id, [{ step, request, outcome }], attempts + 1);
    attempts += records.length;
    await persist.save(records);
    return { output: outcome.output, error: outcome.error };
  };
  const gradeWithJudge = prepared.gradeWithJudge as NonNullable<PreparedTask['gradeWithJudge']>;
  let graded: Awaited<ReturnType<typeof gradeWithJudge>>;
  try {
    graded = await gradeWithJudge(sample, output, generate, stage.settings, transcript);
  } catch (error) {
    graded = { score: noVerdict(`the judge's scorer failed: ${describeError(error)}`) };
  }
  const calls = ahead ? [] : (persist.ahead ?? []);
  const freshSuccess = made.some(({ outcome }) => outcome.output !== null && !outcome.cached);
  if ('error' in graded) return { score: noVerdict(graded.error.message), calls, freshSuccess, error: graded.error };
  if (made.length === 0) return { score: graded.score, calls, freshSuccess };
  return { score: withJudgeTotals(graded.score, judgeTotals(stage.model.id, made)), calls, freshSuccess };
}


function judgeTotals(model: string, made: readonly StepCall[]): JudgeTotals {
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

/**
 * Calls in the judge role as stored call records: `actor` the judge, `modelId` the model whose
 * output was graded, `repeat` which of its answers (see `roleCallRecords`).
 */
function judgeRoleRecords(persist: JudgePersist, sampleId: string, judgeId: string, made: readonly MadeCall[], firstAttempt = 1): CallRecord[] {
  const { runId, modelId, repeat } = persist;
  return roleCallRecords({ runId, modelId, sampleId, role: 'judge', actor: judgeId, ...(repeat !== undefined ? { repeat } : {}) }, made, firstAttempt);
}
