import type { Score } from '../core/index.js';

/**
 * What a judged score carries in `metadata.judge`: enough to audit the verdict from the result row
 * alone (the judge's full requests and responses are in the calls table, role `judge`).
 */
export interface JudgeMetadata {
  readonly model: string;
  readonly rubric: string;
  readonly rubricSha256: string;
  /** One vote per repeat (null: no parseable verdict after the retries, or the call failed). */
  readonly votes: readonly (boolean | null)[];
  /** Share of repeats in the largest group of pass / fail / no verdict. */
  readonly agreement: number;
  /** The judge's reply text of each repeat's last attempt (its reasoning, for reports). */
  readonly responses: readonly string[];
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** null when a call's cost is unknown. */
  readonly costUsd: number | null;
}

/** The deterministic score a judged score replaced, kept beside it. */
export interface DeterministicMetadata {
  readonly value: Score['value'];
  readonly explanation?: string;
}

export function judgeMetadataOf(score: Score | null | undefined): JudgeMetadata | undefined {
  const judge = score?.metadata?.['judge'];
  return judge && typeof judge === 'object' ? (judge as JudgeMetadata) : undefined;
}
