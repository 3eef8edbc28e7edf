import type { Score } from '../core/index.js';
import type { RubricAudit } from '../judges/judge.js';

/**
 * What a judged score carries in `metadata.judge`: enough to audit the verdict from the result row
 * alone (the judge's full requests and responses are in the calls table, role `judge`). The engine
 * writes the judge's model and its calls, tokens and cost for every score a model-graded scorer
 * got by calling the judge; between them, the scorer's own audit trail — a rubric judgment's
 * rubric, votes, agreement and replies ({@link RubricAudit}; other model-graded scorers keep their
 * judgment in the score's `answer` and leave these out).
 */
export interface JudgeMetadata extends RubricAudit {
  readonly model: string;
  /** The judge's calls (every HTTP attempt; a cache hit counts one). */
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** null when a call's cost is unknown. */
  readonly costUsd: number | null;
}

export function judgeMetadataOf(score: Score | null | undefined): JudgeMetadata | undefined {
  const judge = score?.metadata?.['judge'];
  return judge && typeof judge === 'object' ? (judge as JudgeMetadata) : undefined;
}
