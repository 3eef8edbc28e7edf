import type { GenerateResult, Sample, Score, Transcript } from '../core/index.js';

/**
 * What a scorer reads for one sample: the sample (its target and metadata — what the answer is
 * checked against), the output under test, and for a task with a solver the transcript (every
 * call its solver made, in order). Nothing else: a rescore of a stored run gives the same context
 * again, from the store and the rebuilt samples.
 */
export interface ScoringContext {
  readonly sample: Sample;
  readonly output: GenerateResult;
  readonly transcript?: Transcript;
}

/** A score that says why, whatever its verdict: a pass, a fail, a number and a no verdict alike carry an explanation. */
export type ExplainedScore = Score & { readonly explanation: string };

/**
 * The scorer contract: one sample's context → its score with the reason. Pure and deterministic
 * (no model, no clock, no randomness, no I/O): `assay rescore` and `show --readings` read stored
 * outputs with it again and must get the same verdicts. A verdict it cannot reach is a no verdict
 * (`value: null`) with the reason, never a guessed pass or fail. Model-graded scoring is not a
 * `Scorer`: it goes through the task's `gradeWithJudge`, which calls the judge role (and may
 * start from a scorer's score, as FunctionChat's exact match does).
 */
export interface Scorer {
  /** Names the scorer in docs and tests (`functionchat/exact-match`). */
  readonly name: string;
  score(context: ScoringContext): ExplainedScore;
}

/** A scorer as a task's `PreparedTask.score(sample, output, transcript)`. */
export function scoreWith(scorer: Scorer): (sample: Sample, output: GenerateResult, transcript?: Transcript) => Score {
  return (sample, output, transcript) => scorer.score({ sample, output, ...(transcript ? { transcript } : {}) });
}
