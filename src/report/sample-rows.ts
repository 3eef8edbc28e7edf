import { isNoVerdict, type GenerateResult, type Message, type Sample, type Score, type ToolSpec, type Transcript } from '../core/index.js';
import { reviewChanges, type ReviewReading } from '../benchmarks/review-reading.js';
import type { Task } from '../benchmarks/task.js';
import type { CallError, CallRecord, ResultRecord, ReviewRecord } from '../store/records.js';
import type { SampleIndex as SampleIndexShape } from './report-shapes.js';

/** What the sample browser filters on. `pending`: the sample has no result yet for that model (an unfinished run). */
export const VERDICTS = ['pass', 'fail', 'no verdict', 'manual', 'number', 'error', 'pending'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** Flags of an index row (bits). */
export const ROW_FLAGS = { reviewed: 1, changedByReview: 2, cached: 4, detailed: 8 } as const;

/** The sample index of a run (report-shapes.ts), its verdicts these. */
export type SampleIndex = SampleIndexShape<Verdict>;

/** A stored output as the report shows it (the raw wire response left out). */
export interface OutputView {
  readonly text: string;
  readonly toolCalls: readonly { readonly name: string; readonly rawArguments: string; readonly parseError?: string }[];
  readonly finishReason: string;
  readonly warnings: GenerateResult['warnings'];
}

/** One stored call of a sample: who made it, what it sent (unless it was the sample's own prompt) and what came back. */
export interface CallView {
  readonly role: CallRecord['role'];
  readonly actor?: string;
  readonly step?: string;
  readonly attempt: number;
  /** The messages sent; null when they were exactly the sample's prompt (shown once, above). */
  readonly messages: readonly Message[] | null;
  /** The structured-output schema's name, when one was asked for. */
  readonly responseFormat?: string;
  readonly settings?: unknown;
  readonly output: OutputView | null;
  readonly error: CallError | null;
  readonly latencyMs: number;
  readonly costUsd: number | null;
  readonly inputTokens?: number;
  readonly outputTokens?: number;
}

/** Everything about one (sample, model): what was asked, what came back, how it was read and judged. */
export interface SampleDetail {
  readonly sample: string;
  readonly model: string;
  /** Which of the model's answers this is (0-based), only for a run with repeats > 1. */
  readonly repeat?: number;
  readonly verdict: Verdict;
  readonly input: readonly Message[];
  readonly tools?: readonly ToolSpec[];
  readonly target: unknown;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly output: OutputView | null;
  /** The parsed answer, the score's value, the scorer's (or judge's) explanation and the score's metadata (judge votes and replies). */
  readonly answer: unknown;
  readonly value: Score['value'] | null;
  readonly explanation: string | null;
  readonly scoreMetadata: Readonly<Record<string, unknown>> | null;
  readonly error: CallError | null;
  readonly review?: { readonly verdict: boolean; readonly note: string; readonly source: string; readonly reviewedAt: string; readonly changed: boolean };
  /** Every call of a multi-step sample, in order (a conversation), when the task has a solver. */
  readonly transcript?: Transcript;
  /** Every stored call made for this sample and model, every role, in order: the model's, the simulated user's, the judge's (repeats and re-asks included). */
  readonly calls: readonly CallView[];
}

/** A result's verdict; `task`: whose reading may leave a no verdict to manual analysis (`Task.isManualAnalysis`). */
export function verdictOf(result: Pick<ResultRecord, 'status' | 'score'> | undefined, task: Pick<Task, 'isManualAnalysis'>): Verdict {
  if (!result) return 'pending';
  if (result.status === 'error') return 'error';
  const score = result.score;
  if (!score) return 'no verdict';
  if (task.isManualAnalysis?.(score) === true) return 'manual';
  if (isNoVerdict(score)) return 'no verdict';
  if (typeof score.value === 'number') return 'number';
  return score.value ? 'pass' : 'fail';
}

/** A review changes a verdict when it differs from the stored score's pass or fail (a no verdict made pass or fail counts), as the summary counts it. */
export const reviewChangesResult = (reading: ReviewReading, result: Pick<ResultRecord, 'score'> | undefined, review: ReviewRecord): boolean =>
  reviewChanges(reading, result?.score, review.verdict);

export function outputView(output: GenerateResult | null): OutputView | null {
  if (!output) return null;
  return {
    text: output.text,
    toolCalls: output.toolCalls.map((c) => ({ name: c.name, rawArguments: c.rawArguments, ...(c.parseError !== undefined ? { parseError: c.parseError } : {}) })),
    finishReason: output.finishReason.raw ?? output.finishReason.unified,
    warnings: output.warnings,
  };
}

export function callView(call: CallRecord, sampleInputJson: string): CallView {
  const request = (call.request ?? {}) as { messages?: readonly Message[]; responseFormat?: { name?: string }; settings?: unknown };
  const messages = Array.isArray(request.messages) ? request.messages : null;
  return {
    role: call.role,
    ...(call.actor !== undefined ? { actor: call.actor } : {}),
    ...(call.step !== undefined ? { step: call.step } : {}),
    attempt: call.attempt,
    messages: messages && JSON.stringify(messages) === sampleInputJson ? null : (messages ?? []),
    ...(request.responseFormat?.name ? { responseFormat: request.responseFormat.name } : {}),
    ...(request.settings !== undefined ? { settings: request.settings } : {}),
    output: outputView(call.output),
    error: call.error,
    latencyMs: call.latencyMs,
    costUsd: call.costUsd,
    ...(call.usage.inputTokens !== undefined ? { inputTokens: call.usage.inputTokens } : {}),
    ...(call.usage.outputTokens !== undefined ? { outputTokens: call.usage.outputTokens } : {}),
  };
}

/**
 * One row in full; `reading`: how the run's scores read as a reviewer's pass or fail
 * (`reviewReadingOfRun`). `repeat`: the row's repeat, given only for a run with repeats > 1 — the
 * detail then says it and keeps the calls of that repeat alone (`CallRecord.repeat`: every role's
 * calls of the answer); without it, every call of the sample and model, as always.
 */
export function sampleDetail(
  sample: Sample,
  model: string,
  result: ResultRecord | undefined,
  review: ReviewRecord | undefined,
  calls: readonly CallRecord[],
  reading: ReviewReading,
  task: Pick<Task, 'isManualAnalysis'>,
  repeat?: number,
): SampleDetail {
  const inputJson = JSON.stringify(sample.input);
  const score = result?.score ?? null;
  const own = (call: CallRecord): boolean => call.modelId === model && (repeat === undefined || (call.repeat ?? 0) === repeat);
  return {
    sample: sample.id,
    model,
    ...(repeat !== undefined ? { repeat } : {}),
    verdict: verdictOf(result, task),
    input: sample.input,
    ...(sample.tools ? { tools: sample.tools } : {}),
    target: sample.target,
    metadata: sample.metadata,
    output: outputView(result?.output ?? null),
    answer: score?.answer ?? null,
    value: score?.value ?? null,
    explanation: score?.explanation ?? null,
    scoreMetadata: score?.metadata ?? null,
    error: result?.error ?? null,
    ...(review ? { review: { verdict: review.verdict, note: review.note, source: review.source, reviewedAt: review.reviewedAt, changed: reviewChangesResult(reading, result, review) } } : {}),
    ...(result?.transcript ? { transcript: result.transcript } : {}),
    calls: calls.filter(own).map((c) => callView(c, inputJson)),
  };
}
