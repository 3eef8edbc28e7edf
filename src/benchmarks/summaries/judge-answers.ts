import { z } from 'zod';

/**
 * The fixed shapes of the summaries judge's answers. Each is a zod schema (to read an answer
 * strictly, `parseJsonAnswer`) and the same shape as a JSON Schema (asked for through structured
 * output where the provider has it). Written twice on purpose, small and side by side: the JSON
 * Schemas must stay within what every provider's structured output accepts (OpenAI strict mode:
 * every key required, no extra keys), and a test checks that the two agree.
 */

const label = z.enum(['yes', 'no', 'idk']);
const LABEL_SCHEMA = { type: 'string', enum: ['yes', 'no', 'idk'] } as const;

const object = (properties: Record<string, unknown>): Readonly<Record<string, unknown>> =>
  Object.freeze({ type: 'object', properties, required: Object.keys(properties), additionalProperties: false });

/** Step 1: `{"claims": [string, …]}` — the summary's atomic claims, in order. */
export const claimsAnswer = z.strictObject({ claims: z.array(z.string()) });
export const CLAIMS_SCHEMA = object({ claims: { type: 'array', items: { type: 'string' } } });

/** Step 2: `{"verdicts": [{"verdict": "yes"|"no"|"idk", "reason": string}, …]}` — one per claim, in claim order. */
export const verdictsAnswer = z.strictObject({ verdicts: z.array(z.strictObject({ verdict: label, reason: z.string() })) });
export const VERDICTS_SCHEMA = object({ verdicts: { type: 'array', items: object({ verdict: LABEL_SCHEMA, reason: { type: 'string' } }) } });

/** Coverage, step 1: `{"questions": [string, …]}` — closed questions the article answers yes. */
export const questionsAnswer = z.strictObject({ questions: z.array(z.string()) });
export const QUESTIONS_SCHEMA = object({ questions: { type: 'array', items: { type: 'string' } } });

/** Coverage, step 2: `{"answers": ["yes"|"no"|"idk", …]}` — one per question, from one text alone. */
export const answersAnswer = z.strictObject({ answers: z.array(label) });
export const ANSWERS_SCHEMA = object({ answers: { type: 'array', items: LABEL_SCHEMA } });

export type ClaimsAnswer = z.infer<typeof claimsAnswer>;
export type VerdictsAnswer = z.infer<typeof verdictsAnswer>;
export type QuestionsAnswer = z.infer<typeof questionsAnswer>;
export type AnswersAnswer = z.infer<typeof answersAnswer>;
