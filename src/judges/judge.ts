import { InputError, user, withFields, type GenerateRequest, type GenerateResult, type GenerateSettings, type RoleGenerate, type Score, type SeededJudgeSettings, type StepOutcome } from '../core/index.js';
import { fillRubric } from './fill.js';
import type { JudgeRequest } from './judge-request.js';
import { verdictSchema, withJsonVerdictInstruction } from './json-verdict-request.js';
import { parsePassFail, type ParsedVerdict } from './verdict.js';
import { majority } from './vote.js';

/**
 * Defaults: one judgment (`--judge-repeats 1`), the rubric's own text verdict, two parse retries,
 * and temperature 0.1 as upstream FunctionChat-Bench's judge (`config/openai.cfg`; its `n` and
 * `max_tokens` there are never sent, so no token cap here either).
 */
export const defaultJudgeSettings: SeededJudgeSettings = Object.freeze({ repeats: 1, format: 'text', maxParseRetries: 2, seed: 0, temperature: 0.1 });

/** The transcript label of a rubric judgment's calls (see {@link judgeWithRubric}). */
export const RUBRIC_STEP = 'verdict';

/** One judge call: which repeat, which parse attempt, its step label, what was sent, what came back and how it read. */
export interface JudgeCall {
  /** 0-based repeat index. */
  readonly repeat: number;
  /** 0 for the repeat's first call, k for its k-th parse retry. */
  readonly attempt: number;
  /** The call's label in the sample's transcript: `verdict`, `verdict/repeat-2`, `verdict#2` (a re-ask). */
  readonly step: string;
  readonly request: GenerateRequest;
  /** The output, or the error left after the middleware's retries. */
  readonly outcome: StepOutcome;
  readonly verdict: boolean | null;
  readonly reason: string;
}

export interface Judgment {
  /** The majority of the votes; null (no verdict) on a tie or too many unreadable votes. */
  readonly verdict: boolean | null;
  /** One per repeat: the verdict of its last call. */
  readonly votes: readonly (boolean | null)[];
  /** Share of votes in the largest of the pass / fail / no-verdict groups. */
  readonly agreement: number;
  /** Every call, repeat by repeat, in attempt order. */
  readonly calls: readonly JudgeCall[];
  /** One line for reports: "judge: pass (3/3)", "judge: no verdict — 1 pass, 1 fail (tie)". */
  readonly explanation: string;
  readonly rubricId: string;
  readonly rubricSha256: string;
}

/**
 * Grades one output against a rubric with an LLM judge, through `generate` in the judge role (the
 * engine sends each call through the judge model's middleware — cache, limits, retries on transport
 * errors, cost, the run's budget — and stores it with the sample as it is made):
 *
 * - The prompt is the rubric filled with fenced values (one user message); in JSON mode the
 *   verdict instruction is appended and `responseFormat` asks for {@link verdictSchema}.
 * - Repeat r (0-based) calls with seed `seed + r`, so repeats differ by seed and are cached
 *   separately. An unreadable verdict is asked again with seed `seed + r + repeats·k` for the k-th
 *   retry (the same request would be answered from the cache with the same text); every (r, k) gets
 *   its own seed. After `maxParseRetries` retries the repeat is a no-verdict vote.
 * - An answer cut off at the token limit (finish reason `length`) is unreadable too.
 * - A call that fails after the middleware's own retries is a no-verdict vote whose reason names
 *   the error; it is not retried again here. A call cut short by the run's stop (`aborted`) ends
 *   the judgment: the repeats after it are not asked (the sample is left for the resume).
 *
 * Repeats are asked one after another, so a sample's judge calls are stored in repeat order
 * (repeat 1 and its re-asks, then repeat 2…); the judge model's concurrency, shared by the run's
 * samples, is what bounds how many judge calls are in flight. Steps: `verdict` with one repeat,
 * `verdict/repeat-r` with several, `#k+1` appended for the k-th re-ask. Never folds a no-verdict
 * into pass or fail.
 * @throws InputError for invalid settings, or a rubric and values that do not match (see fillRubric).
 */
export async function judgeWithRubric(generate: RoleGenerate, request: JudgeRequest, settings: SeededJudgeSettings, step: string = RUBRIC_STEP): Promise<Judgment> {
  checkJudgeSettings(settings);
  const filled = fillRubric(request);
  const json = settings.format === 'json';
  const prompt = json ? withJsonVerdictInstruction(filled) : filled;
  // The answer's schema (zod) is loaded by a judge in JSON mode only: a run judged by text rubrics, or not judged, does not load it.
  const parse: (text: string) => ParsedVerdict = json ? (await import('./json-verdict.js')).parseJsonVerdict : parsePassFail;

  const requestFor = (seed: number): GenerateRequest => {
    const sampling: GenerateSettings = {
      temperature: settings.temperature,
      seed,
      ...(settings.maxTokens !== undefined ? { maxTokens: settings.maxTokens } : {}),
    };
    return {
      messages: [user(prompt)],
      settings: sampling,
      ...(json ? { responseFormat: { type: 'json', name: 'verdict', schema: verdictSchema } } : {}),
    };
  };

  const perRepeat: JudgeCall[][] = [];
  let stopped = false;
  for (let repeat = 0; repeat < settings.repeats; repeat++) {
    const calls: JudgeCall[] = [];
    perRepeat.push(calls);
    if (stopped) continue;
    const repeatStep = settings.repeats > 1 ? `${step}/repeat-${repeat + 1}` : step;
    for (let attempt = 0; attempt <= settings.maxParseRetries; attempt++) {
      const callRequest = requestFor(settings.seed + repeat + settings.repeats * attempt);
      const callStep = attempt === 0 ? repeatStep : `${repeatStep}#${attempt + 1}`;
      const outcome = await generate('judge', callRequest, callStep);
      if (!outcome.output) {
        const error = outcome.error ?? { kind: 'unexpected', message: 'no output and no error' };
        calls.push({ repeat, attempt, step: callStep, request: callRequest, outcome, verdict: null, reason: `judge call failed (${error.kind}): ${error.message}` });
        stopped = error.kind === 'aborted';
        break;
      }
      const { verdict, reason } = readVerdict(outcome.output, parse);
      calls.push({ repeat, attempt, step: callStep, request: callRequest, outcome, verdict, reason });
      if (verdict !== null) break;
    }
  }

  const votes = perRepeat.map((calls) => calls.at(-1)?.verdict ?? null);
  const vote = majority(votes);
  const firstNoVerdict = perRepeat.map((calls) => calls.at(-1)).find((call) => call && call.verdict === null);
  return {
    verdict: vote.verdict,
    votes,
    agreement: vote.agreement,
    calls: perRepeat.flat(),
    explanation: explain(vote, settings.repeats, firstNoVerdict?.reason),
    rubricId: request.rubric.id,
    rubricSha256: request.rubric.sha256,
  };
}

/**
 * What a rubric judgment adds to `metadata.judge` (the engine adds the judge's model before these
 * and its calls, tokens and cost after them): enough to audit the verdict from the result row alone.
 */
export interface RubricAudit {
  readonly rubric: string;
  readonly rubricSha256: string;
  /** One vote per repeat (null: no parseable verdict after the retries, or the call failed). */
  readonly votes: readonly (boolean | null)[];
  /** Share of repeats in the largest group of pass / fail / no verdict. */
  readonly agreement: number;
  /** The judge's reply text of each repeat's last attempt (its reasoning, for reports). */
  readonly responses: readonly string[];
}

/** The deterministic score a judged score replaced, kept beside it in `metadata.deterministic`. */
export interface DeterministicScore {
  readonly value: Score['value'];
  readonly explanation?: string;
}

/** A model-graded scorer's answer: the judged score, or the error of a judge call that failed (the sample then ends in error, retryable). */
export type RubricGraded = { readonly score: Score } | { readonly error: { readonly kind: string; readonly message: string } };

/**
 * The score a rubric judgment gives an output whose deterministic score was not final: the
 * judge's verdict replaces the value; the deterministic score goes in `metadata.deterministic`
 * and the judgment's audit trail ({@link RubricAudit}) in `metadata.judge`. A judgment with no
 * verdict in which a call failed outright is an error (`judge-<kind>`, naming the judge), not a
 * no verdict: the judge could not be reached, and `--retry-errors` grades the item again.
 */
export function rubricGraded(score: Score, judgment: Judgment, judgeModel: string): RubricGraded {
  const failed = judgment.verdict === null ? judgment.calls.find((c) => c.outcome.error !== null) : undefined;
  if (failed?.outcome.error) {
    const { kind, message } = failed.outcome.error;
    return { error: { kind: `judge-${kind}`, message: `the judge ${judgeModel} failed: ${message}` } };
  }
  const responses = new Map<number, string>();
  // The last attempt of each repeat is the one its vote was read from.
  for (const call of judgment.calls) responses.set(call.repeat, call.outcome.output?.text ?? `(no response: ${call.outcome.error?.message ?? call.reason})`);
  const judge: RubricAudit = {
    rubric: judgment.rubricId,
    rubricSha256: judgment.rubricSha256,
    votes: judgment.votes,
    agreement: judgment.agreement,
    responses: [...responses.entries()].sort(([a], [b]) => a - b).map(([, text]) => text),
  };
  const deterministic: DeterministicScore = { value: score.value, ...(score.explanation ? { explanation: score.explanation } : {}) };
  return {
    score: {
      value: judgment.verdict,
      ...(score.answer !== undefined ? { answer: score.answer } : {}),
      explanation: judgment.explanation,
      metadata: withFields(score.metadata ?? {}, { deterministic, judge }),
    },
  };
}

/**
 * An answer cut off at the token limit gives no verdict, whatever its last line: that line was
 * written mid-reasoning, so a "pass" there is not the judge's decision. It is retried like any
 * unreadable answer.
 */
function readVerdict(output: GenerateResult, parse: (text: string) => ParsedVerdict): ParsedVerdict {
  if (output.finishReason.unified === 'length') return { verdict: null, reason: 'judge answer cut off at the token limit (finish reason length)' };
  return parse(output.text);
}

function explain(vote: ReturnType<typeof majority>, repeats: number, noVerdictReason: string | undefined): string {
  if (vote.verdict === true) return `judge: pass (${vote.pass}/${repeats})`;
  if (vote.verdict === false) return `judge: fail (${vote.fail}/${repeats})`;
  const tie = vote.pass === vote.fail && vote.pass > 0 && vote.none === 0 ? ' (tie)' : '';
  const unreadable = vote.none > 0 ? `, ${vote.none} no verdict (${noVerdictReason ?? 'unknown'})` : '';
  return `judge: no verdict — ${vote.pass} pass, ${vote.fail} fail${unreadable}${tie}`;
}

/**
 * Checks judge settings (the runner checks a run's before any call, so a bad value refuses the
 * run instead of making every judged item no verdict).
 * @throws InputError naming the setting.
 */
export function checkJudgeSettings(settings: SeededJudgeSettings): void {
  const { repeats, maxParseRetries, seed, temperature, maxTokens } = settings;
  if (!Number.isInteger(repeats) || repeats < 1) throw new InputError(`judge repeats must be a positive integer, got ${String(repeats)}`);
  if (!Number.isInteger(maxParseRetries) || maxParseRetries < 0) {
    throw new InputError(`judge parse retries must be a non-negative integer, got ${String(maxParseRetries)}`);
  }
  if (!Number.isSafeInteger(seed)) throw new InputError(`judge seed must be an integer, got ${String(seed)}`);
  if (!Number.isFinite(temperature) || temperature < 0) throw new InputError(`judge temperature must be a number >= 0, got ${String(temperature)}`);
  if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || maxTokens < 1)) {
    throw new InputError(`judge max tokens must be a positive integer, got ${String(maxTokens)}`);
  }
  if (settings.format !== 'text' && settings.format !== 'json') throw new InputError(`judge format must be text or json, got ${String(settings.format)}`);
}
