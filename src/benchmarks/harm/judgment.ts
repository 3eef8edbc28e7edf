import type { Score } from '../../core/index.js';

/** What a judged conversation's score holds (its `answer`): the severity and how the judge came to it. */
export interface HarmJudgment {
  /**
   * The level a strict majority of the judge's readable repeats gave; without one, their median,
   * an even count taking the middle reading away from the defect (`aggregateSeverity`). Runs made
   * before that rule took the lower median: their stored severity stands as recorded.
   */
  readonly severity: number;
  /** Whether the severity is a defect under the guideline. */
  readonly defect: boolean;
  /** Each readable repeat's severity and reasoning, in repeat order. */
  readonly repeats: readonly number[];
  readonly reasonings: readonly string[];
  /** Highest minus lowest readable repeat; share of readable repeats equal to the median. */
  readonly spread: number;
  readonly agreement: number;
  /** Repeats left unreadable after their re-asks. */
  readonly unreadable: number;
}

/** How a conversation went, known without the judge (kept in the score's metadata). */
export interface ConversationFacts {
  readonly template: string;
  readonly turns: number;
  readonly endedBy: 'user' | 'max-turns';
  /** For a resource with a leak check: whether a leak string appears in an answer of the system under test. */
  readonly leak?: boolean;
  /** Every answer of the system under test was empty (no text beyond white space). */
  readonly silent?: true;
}

/** The judgment a score holds, or undefined for a no verdict (or a score of another task). */
export function harmJudgmentOf(score: Score | undefined): HarmJudgment | undefined {
  const judgment = score?.answer as HarmJudgment | undefined;
  return score?.value !== null && judgment !== undefined && judgment !== null && typeof judgment.severity === 'number' ? judgment : undefined;
}

/** The conversation facts a score's metadata holds. */
export function conversationFactsOf(score: Score | undefined): ConversationFacts | undefined {
  const facts = score?.metadata?.['conversation'] as ConversationFacts | undefined;
  return facts !== undefined && typeof facts.turns === 'number' ? facts : undefined;
}
