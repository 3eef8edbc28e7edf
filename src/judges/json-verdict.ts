import { z } from 'zod';
import { schemaProblems, unfenced } from './json-answer.js';
import type { ParsedVerdict } from './verdict.js';

// The JSON-verdict mode's request (its answer shape and instruction) is `json-verdict-request.ts`.

const verdictAnswer = z.strictObject({ reasoning: z.string(), verdict: z.enum(['pass', 'fail']) });

/**
 * Reads a JSON-mode judge answer: one object `{reasoning: string, verdict: "pass" | "fail"}`,
 * optionally inside a ```json fence. Strict: not JSON, a missing or unknown key, or a verdict
 * other than exactly "pass"/"fail" is `null` with the reason (no verdict, to retry), never a guess.
 */
export function parseJsonVerdict(text: string): ParsedVerdict {
  const trimmed = text.trim();
  if (trimmed === '') return { verdict: null, reason: 'empty judge answer' };
  const body = unfenced(trimmed);
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return { verdict: null, reason: `judge answer is not JSON: ${(error as Error).message}` };
  }
  const parsed = verdictAnswer.safeParse(value);
  if (!parsed.success) {
    return { verdict: null, reason: `judge answer does not match the verdict schema: ${schemaProblems(parsed.error)}` };
  }
  const verdict = parsed.data.verdict === 'pass';
  return { verdict, reason: `${parsed.data.verdict}: JSON verdict` };
}
