// What a JSON-mode judge is asked, without zod: every judged run builds its requests from this,
// while the answer's schema (`json-verdict.ts`) is loaded only by a judge in JSON mode.

/**
 * The JSON-verdict mode's answer shape, reasons first: a model generates fields in order, so the
 * reasoning is written before it commits to a verdict (as the text rubrics ask for). Strict
 * (`additionalProperties: false`, every field required) so that OpenAI's `strict: true`
 * structured output accepts it.
 */
export const verdictSchema: Readonly<Record<string, unknown>> = deepFreeze({
  type: 'object',
  properties: {
    reasoning: { type: 'string', description: 'Step-by-step reasoning, written before the verdict.' },
    verdict: { type: 'string', enum: ['pass', 'fail'] },
  },
  required: ['reasoning', 'verdict'],
  additionalProperties: false,
});

/** Shared by every JSON-mode request (and hashed into its cache key): nothing may change it. */
function deepFreeze<T extends object>(value: T): T {
  for (const member of Object.values(value)) if (member !== null && typeof member === 'object') deepFreeze(member as object);
  return Object.freeze(value);
}

/** Appended to the filled rubric in JSON mode; it replaces the rubric's "decision on the last line" rule. */
export const JSON_VERDICT_INSTRUCTION =
  'Answer format: instead of writing your decision on separate lines at the end, reply with one JSON object and nothing else, ' +
  'with exactly two keys in this order: "reasoning" (a string: your step-by-step reasoning) and then "verdict" ' +
  '(exactly "pass" or "fail", lower case). Example shape: {"reasoning": "...", "verdict": "fail"}';

/** The judge prompt for JSON mode: the filled rubric followed by {@link JSON_VERDICT_INSTRUCTION}. */
export const withJsonVerdictInstruction = (filledRubric: string): string => `${filledRubric}\n\n${JSON_VERDICT_INSTRUCTION}`;
