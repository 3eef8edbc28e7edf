import { z } from 'zod';

/** The groundedness judge's answer, reasons first: `{"reasoning": string, "score": 1..5}`. */
export const groundednessAnswer = z.strictObject({ reasoning: z.string(), score: z.int().min(1).max(5) });
export type GroundednessAnswer = z.infer<typeof groundednessAnswer>;

/** The same shape as the JSON Schema asked for through structured output (an enum: providers' strict modes refuse min/max). */
export const GROUNDEDNESS_SCHEMA: Readonly<Record<string, unknown>> = Object.freeze({
  type: 'object',
  properties: { reasoning: { type: 'string' }, score: { type: 'integer', enum: [1, 2, 3, 4, 5] } },
  required: ['reasoning', 'score'],
  additionalProperties: false,
});
