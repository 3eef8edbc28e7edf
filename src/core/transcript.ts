import type { Role } from './roles.js';
import type { ToolCall } from './tools.js';

/**
 * One call of a sample that takes several (a conversation between a simulated user and the model
 * under test): who made it, its label, and what came back. The request each call sent is in the
 * call ledger; the transcript keeps what a scorer and a reader need, in the order the calls were
 * made, without repeating every prompt.
 */
export interface TranscriptStep {
  readonly role: Role;
  /** The call's label (`turn 1/user`, `turn 1/test`). */
  readonly step: string;
  /** The model that answered. */
  readonly model: string;
  /** The answer's text; null when the call failed. */
  readonly text: string | null;
  /** Tool calls the answer made, when it made any. */
  readonly toolCalls?: readonly ToolCall[];
  /** The failure left after the middleware's retries, when the call failed. */
  readonly error?: { readonly kind: string; readonly message: string };
}

/** Every call a task's solver made for one sample, in order (see `PreparedTask.solve`). */
export type Transcript = readonly TranscriptStep[];

/**
 * Whether a call's step label marks it as a re-ask of an answer that could not be read: the
 * judges label the k-th call of a step `step#k` (`claims#2`, `rubric/repeat-2#3`).
 */
export const isReaskStep = (step: string | null | undefined): boolean => step !== null && step !== undefined && /#\d+$/.test(step);
