import type { RoleGenerate, SeededJudgeSettings } from '../../core/index.js';
import { askJudgeRepeats } from '../../judges/ask-repeats.js';
import { fillRubric } from '../../judges/fill.js';
import type { Rubric } from '../../judges/judge-request.js';
import { GROUNDEDNESS_SCHEMA, groundednessAnswer } from './judge-answer.js';
import { aggregateSeverity } from '../../metrics/severity.js';

/** The run's judge settings (the score aggregates `repeats` gradings, see `GroundednessGrade.score`; the answer format is always JSON). */
export type GroundednessJudgeSettings = Omit<SeededJudgeSettings, 'format'>;

/** A graded answer: the median of the repeats' scores, each repeat's score and reasoning, and the spread. */
export interface GroundednessGrade {
  /**
   * A level of the 1–5 scale: the score a strict majority of the usable repeats gave; without one,
   * their median, an even count taking the upper middle reading — away from the defect, so an
   * answer is a defect only when more than half of its repeats are. Runs made before this rule
   * stored the plain median (x.5 with an even count): their stored score stands as recorded.
   */
  readonly score: number;
  readonly scores: readonly number[];
  readonly reasonings: readonly string[];
  /** Highest minus lowest repeat score (0 with one repeat). */
  readonly spread: number;
  /** The answer was empty (no text beyond white space): graded 1 without asking the judge. */
  readonly empty?: true;
}

export type GroundednessJudged =
  | { readonly kind: 'judged'; readonly grade: GroundednessGrade }
  | { readonly kind: 'no-verdict'; readonly reason: string }
  | { readonly kind: 'error'; readonly error: { readonly kind: string; readonly message: string } };


/**
 * Grades how well an answer is grounded in its context, 1 (not grounded) … 5 (every statement
 * grounded), through the judge role. Repeat r's k-th re-ask uses seed `seed + r + R·k`. The grade
 * aggregates the usable repeats (see `GroundednessGrade.score`) when they are more than half of R;
 * otherwise no verdict. A
 * judge call that fails after the middleware's retries makes it an error.
 */
export async function judgeGroundedness(
  generate: RoleGenerate,
  item: { readonly question: string; readonly context: string; readonly answer: string },
  rubric: Rubric,
  settings: GroundednessJudgeSettings,
): Promise<GroundednessJudged> {
  const prompt = fillRubric({ rubric, values: { question: item.question, context: item.context, answer: item.answer } });
  const sampling = { temperature: settings.temperature, ...(settings.maxTokens !== undefined ? { maxTokens: settings.maxTokens } : {}) };
  const asked = await askJudgeRepeats(
    generate,
    settings,
    { step: 'groundedness', prompt, schema: groundednessAnswer, format: { type: 'json', name: 'groundedness', schema: GROUNDEDNESS_SCHEMA }, settings: sampling },
    'grading',
  );
  if (asked.kind !== 'usable') return asked;
  const usable = asked.values;
  const scores = usable.map((u) => u.score);
  // Upper middle reading on a tie: low scores are the defects, so that is away from the defect.
  const score = aggregateSeverity(scores, undefined, 'upper').value as number;
  return { kind: 'judged', grade: { score, scores, reasonings: usable.map((u) => u.reasoning), spread: Math.max(...scores) - Math.min(...scores) } };
}
