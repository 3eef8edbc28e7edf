import type { GenerateRequest, GenerateResult } from './generate.js';

/**
 * Who a call is made for: `test` — a model under test; `user` — a simulated user; `judge` — the
 * grading model. A sample's calls are stored with their role, so a transcript shows who said what.
 */
export type Role = 'test' | 'user' | 'judge';

/** What one call gave a solver or a scorer: the output, or the error left after the middleware's retries. */
export interface StepOutcome {
  readonly output: GenerateResult | null;
  readonly error: { readonly kind: string; readonly message: string } | null;
}

/**
 * Makes one call in a role, through the engine's model middleware (cache, retries, limits, cost,
 * budget); `step` labels it in the transcript (`summary`, `claims`, `verdicts`, `coverage/questions`).
 * Never throws for a failed call: the failure is the outcome's `error`.
 */
export type RoleGenerate = (role: Role, request: GenerateRequest, step: string) => Promise<StepOutcome>;
