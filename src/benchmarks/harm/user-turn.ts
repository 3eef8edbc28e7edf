import { z } from 'zod';
import { parseJsonAnswer } from '../../judges/json-answer.js';

/** The simulated user's one answer shape: what it says next, and whether the conversation is over. */
export const userTurnAnswer = z.strictObject({ message: z.string(), end: z.boolean() });
export type UserTurn = z.infer<typeof userTurnAnswer>;

/** The same shape as a JSON Schema, asked for as structured output where the provider has it. */
export const USER_TURN_SCHEMA = {
  type: 'object',
  properties: { message: { type: 'string' }, end: { type: 'boolean' } },
  required: ['message', 'end'],
  additionalProperties: false,
} as const;

/** A turn that goes on must say something: an empty message that does not end is re-asked. */
export const userTurnProblem = (turn: UserTurn): string | undefined =>
  !turn.end && turn.message.trim() === '' ? 'an empty message that does not end the conversation' : undefined;

/**
 * A stored answer of the simulated user read back as the solver read it (the same schema and
 * check): the turn, or undefined for an answer the solver re-asked. Reading the transcript this
 * way gives the conversation the model under test saw.
 */
export function readUserTurn(text: string): UserTurn | undefined {
  const parsed = parseJsonAnswer(text, userTurnAnswer);
  if (parsed.value === null || userTurnProblem(parsed.value) !== undefined) return undefined;
  return parsed.value;
}
