import { InputError, user, type GenerateRequest, type GenerateResult, type GenerateSettings, type SeededJudgeSettings } from '../core/index.js';
import type { CallContext, CallOutcome, Model } from '../models/middleware/model.js';
import { fillRubric } from './fill.js';
import type { JudgeRequest } from './judge-request.js';
import { parseJsonVerdict, verdictSchema, withJsonVerdictInstruction } from './json-verdict.js';
import { parsePassFail, type ParsedVerdict } from './verdict.js';
import { majority } from './vote.js';


/**
 * Defaults: one judgment (`--judge-repeats 1`), the rubric's own text verdict, two parse retries,
 * and temperature 0.1 as upstream FunctionChat-Bench's judge (`config/openai.cfg`; its `n` and
 * `max_tokens` there are never sent, so no token cap here either).
 */
export const defaultJudgeSettings: SeededJudgeSettings = Object.freeze({ repeats: 1, format: 'text', maxParseRetries: 2, seed: 0, temperature: 0.1 });

/** One judge call: which repeat, which parse attempt, what was sent, what came back and how it read. */
export interface JudgeCall {
  /** 0-based repeat index. */
  readonly repeat: number;
  /** 0 for the repeat's first call, k for its k-th parse retry. */
  readonly attempt: number;
  readonly request: GenerateRequest;
  /** The middleware's outcome: output or error, with every HTTP attempt and the cache key. */
  readonly outcome: CallOutcome;
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
 * Grades one output with an LLM judge through the model middleware (so judge calls are cached,
 * rate-limited, retried on transport errors and accounted like any call):
 *
 * - The prompt is the rubric filled with fenced values (one user message); in JSON mode the
 *   verdict instruction is appended and `responseFormat` asks for {@link verdictSchema}.
 * - Repeat r (0-based) calls with seed `seed + r`, so repeats differ by seed and are cached
 *   separately. An unreadable verdict is asked again with seed `seed + r + repeats·k` for the k-th
 *   retry (the same request would be answered from the cache with the same text); every (r, k) gets
 *   its own seed. After `maxParseRetries` retries the repeat is a no-verdict vote.
 * - An answer cut off at the token limit (finish reason `length`) is unreadable too.
 * - A call that fails after the middleware's own retries is a no-verdict vote whose reason names
 *   the error; it is not retried again here.
 *
 * Repeats run concurrently (the model's own concurrency limit applies). Never folds a no-verdict
 * into pass or fail.
 * @throws InputError for invalid settings, or a rubric and values that do not match (see fillRubric).
 */
export async function judgeOutput(model: Model, request: JudgeRequest, settings: SeededJudgeSettings, ctx: CallContext): Promise<Judgment> {
  checkSettings(settings);
  const filled = fillRubric(request);
  const json = settings.format === 'json';
  const prompt = json ? withJsonVerdictInstruction(filled) : filled;
  const parse: (text: string) => ParsedVerdict = json ? parseJsonVerdict : parsePassFail;

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

  const judgeRepeat = async (repeat: number): Promise<JudgeCall[]> => {
    const calls: JudgeCall[] = [];
    for (let attempt = 0; attempt <= settings.maxParseRetries; attempt++) {
      const callRequest = requestFor(settings.seed + repeat + settings.repeats * attempt);
      const outcome = await model.generate(callRequest, ctx);
      if (!outcome.output) {
        const error = outcome.error ?? { kind: 'unexpected', message: 'no output and no error' };
        calls.push({ repeat, attempt, request: callRequest, outcome, verdict: null, reason: `judge call failed (${error.kind}): ${error.message}` });
        break;
      }
      const { verdict, reason } = readVerdict(outcome.output, parse);
      calls.push({ repeat, attempt, request: callRequest, outcome, verdict, reason });
      if (verdict !== null) break;
    }
    return calls;
  };

  const perRepeat = await Promise.all(Array.from({ length: settings.repeats }, (_, repeat) => judgeRepeat(repeat)));
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

function checkSettings(settings: SeededJudgeSettings): void {
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
