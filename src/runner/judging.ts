import { describeError, noVerdict, type GenerateResult, type Sample, type Score } from '../core/index.js';
import type { PreparedTask } from '../benchmarks/task.js';
import { judgeOutput, type JudgeCall, type JudgeSettings, type Judgment } from '../judges/index.js';
import type { CallContext, Model } from '../models/middleware/model.js';
import type { CallRecord } from '../store/records.js';
import type { DeterministicMetadata, JudgeMetadata } from './judge-metadata.js';

/** The judge of a run: a model in the judge role (its own middleware: cache, limits, retries) and how it grades. */
export interface JudgeStage {
  readonly model: Model;
  readonly settings: JudgeSettings;
}

export interface Graded {
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
export async function gradeWithJudge(stage: JudgeStage, prepared: PreparedTask, sample: Sample, output: GenerateResult, score: Score, context: CallContext): Promise<Graded> {
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

/**
 * The judge's calls as stored call records: role `judge`, `actor` the judge, `modelId` the model
 * whose output was graded. A cache hit is stored too (latency 0), so every judgment's transcript
 * sits with its item even when an earlier run paid for it.
 */
export function judgeCallRecords(runId: string, modelId: string, sampleId: string, judgeId: string, calls: readonly JudgeCall[]): CallRecord[] {
  const records: CallRecord[] = [];
  let attempt = 0;
  for (const call of calls) {
    const base = { runId, sampleId, modelId, role: 'judge' as const, actor: judgeId, cacheKey: call.outcome.cacheKey, request: call.request };
    if (call.outcome.attempts.length === 0) {
      records.push({ ...base, attempt: ++attempt, output: call.outcome.output, error: call.outcome.error, usage: call.outcome.usage, costUsd: call.outcome.costUsd, latencyMs: 0, startedAt: new Date().toISOString() });
      continue;
    }
    for (const a of call.outcome.attempts) {
      records.push({ ...base, attempt: ++attempt, output: a.output, error: a.error, usage: a.output?.usage ?? {}, costUsd: a.costUsd, latencyMs: a.latencyMs, startedAt: a.startedAt });
    }
  }
  return records;
}
