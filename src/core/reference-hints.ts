import type { Rng } from './random.js';

/**
 * What a reference (non-LLM) model needs to answer a sample without reading the prompt: the
 * structured question behind it, in a shape the task that builds it owns (MetaTool's yes/no and
 * tool-selection questions are `benchmarks/metatool/baselines/questions.ts`). Opaque here: a
 * `kind` naming the shape and JSON fields. LLM providers ignore it; the `baseline:` models pass it
 * to the answerer the task declares for its kind (`ReferenceAnswerers`), and the question's hash
 * (its canonical JSON) seeds a random answer, so a shape must stay JSON for answers to repeat.
 */
export interface ReferenceHints {
  readonly kind: string;
  readonly [field: string]: unknown;
}

/** An answer the task's data already holds, graded as given by the `given:answers` model. */
export interface GivenAnswerHints extends ReferenceHints {
  readonly kind: 'given';
  readonly text: string;
}

/** The answer a sample's hints give, when they are a given answer. */
export function givenAnswerOf(hints: ReferenceHints | undefined): string | undefined {
  return hints?.kind === 'given' && typeof hints.text === 'string' ? hints.text : undefined;
}

/** What a reference answerer answered, and why (kept in the call's raw response beside the answer). */
export interface ReferenceAnswer {
  readonly text: string;
  readonly detail?: Readonly<Record<string, unknown>>;
}

/** One question put to a reference answerer. */
export interface ReferenceQuestion {
  readonly hints: ReferenceHints;
  /**
   * The random generator of this question for this baseline and the run's seed, labelled by the
   * question's content: the same question gets the same draws whatever the order, concurrency or
   * resumption of the run. Made on first use (an answerer that draws nothing never hashes).
   */
  rng(): Rng;
}

/** Answers one kind of question by one strategy; deterministic given the question (and its `rng`). */
export type ReferenceAnswerer = (question: ReferenceQuestion) => ReferenceAnswer;

/**
 * A task's reference answerers: by the hints' `kind`, then by the baseline's strategy (the model
 * of a `baseline:<strategy>` id: `random`, `lexical`). A kind or strategy missing: the baseline
 * does not answer those questions.
 */
export type ReferenceAnswerers = Readonly<Record<string, Readonly<Partial<Record<string, ReferenceAnswerer>>>>>;

/** The answerer of `strategy` for questions of `kind`, if the table has one (own keys only). */
export function referenceAnswererFor(answerers: ReferenceAnswerers, kind: string, strategy: string): ReferenceAnswerer | undefined {
  const byStrategy = Object.hasOwn(answerers, kind) ? answerers[kind] : undefined;
  return byStrategy && Object.hasOwn(byStrategy, strategy) ? byStrategy[strategy] : undefined;
}
