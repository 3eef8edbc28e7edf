import type { z } from 'zod';
import { withFields, system, user, type GenerateSettings, type Message, type ResponseFormat, type Role, type RoleGenerate } from '../core/index.js';
import { parseJsonAnswer } from './json-answer.js';

export interface AskJsonOptions<S extends z.ZodType> {
  /** The transcript label of the call (re-asks get `#2`, `#3` … appended). */
  readonly step: string;
  /** The whole judge prompt (a filled rubric), sent as the one user message. */
  readonly prompt: string;
  /**
   * Who is asked: the judge (default), or the simulated user of a conversation, whose answers
   * have a fixed JSON shape too (`{"message", "end"}`).
   */
  readonly role?: Exclude<Role, 'test'>;
  /** A conversation to answer: `prompt` then goes first as the system message, these after it. */
  readonly conversation?: readonly Message[];
  /** Reads the answer; the same shape goes out as `format` for structured output. */
  readonly schema: S;
  readonly format: ResponseFormat;
  /** A check beyond the shape (e.g. one verdict per claim): a reason to re-ask, or undefined when fine. */
  readonly check?: (value: z.infer<S>) => string | undefined;
  /** Sampling; `seeds[k]` is the k-th call's seed (the first call, then each re-ask), so each is its own cache entry. */
  readonly settings: Omit<GenerateSettings, 'seed'>;
  readonly seeds: readonly number[];
}

/** How asking went: the value, or no verdict with why, or an error when a call failed outright. */
export type AskJsonResult<T> =
  | { readonly kind: 'answer'; readonly value: T }
  | { readonly kind: 'no-verdict'; readonly reason: string }
  | { readonly kind: 'error'; readonly error: { readonly kind: string; readonly message: string } };

/**
 * Asks the judge (or a simulated user) for one structured answer: structured output where the provider has it, the
 * prompt's own JSON instructions elsewhere; the answer read strictly ({@link parseJsonAnswer}) and
 * checked. An unreadable, cut-off or failing-the-check answer is asked again with the next seed,
 * up to `seeds.length` calls in all; then it is **no verdict** with the last reason. A call that
 * fails after the middleware's retries is an **error** (the item can be retried), not a no verdict.
 */
export async function askJudgeForJson<S extends z.ZodType>(generate: RoleGenerate, options: AskJsonOptions<S>): Promise<AskJsonResult<z.infer<S>>> {
  let reason = 'no call made';
  for (const [k, seed] of options.seeds.entries()) {
    const step = k === 0 ? options.step : `${options.step}#${k + 1}`;
    const messages = options.conversation ? [system(options.prompt), ...options.conversation] : [user(options.prompt)];
    const outcome = await generate(options.role ?? 'judge', { messages, settings: withFields(options.settings, { seed }), responseFormat: options.format }, step);
    if (!outcome.output) return { kind: 'error', error: outcome.error ?? { kind: 'unexpected', message: 'no output and no error' } };
    if (outcome.output.finishReason.unified === 'length') {
      reason = `${step}: answer cut off at the token limit`;
      continue;
    }
    const parsed = parseJsonAnswer(outcome.output.text, options.schema);
    if (parsed.value === null) {
      reason = `${step}: ${parsed.reason}`;
      continue;
    }
    const problem = options.check?.(parsed.value);
    if (problem === undefined) return { kind: 'answer', value: parsed.value };
    reason = `${step}: ${problem}`;
  }
  return { kind: 'no-verdict', reason };
}
