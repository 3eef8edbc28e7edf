import { withFields, type Score } from '../core/index.js';
import type { RubricAudit } from './judge.js';

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

/**
 * The judge's readable repeats a score keeps in its answer, when the scorer repeats a graded
 * number rather than a rubric vote: harm measurement's severities (`answer.repeats`, as
 * `assay agreement` reads them) and groundedness's scores (`answer.scores`).
 */
function repeatedValuesOf(score: Score | null | undefined): readonly number[] | undefined {
  const answer = score?.answer as { repeats?: unknown; scores?: unknown } | null | undefined;
  const values = answer?.repeats ?? answer?.scores;
  return Array.isArray(values) && values.length > 1 && values.every((v) => typeof v === 'number') ? (values as number[]) : undefined;
}

/**
 * How far a judged score's repeats agree: a rubric judgment's own `agreement` (the share of its
 * votes with the majority), or the share of repeated severities or scores equal to the most
 * common one; undefined for one readable repeat, or a score the judge did not grade.
 */
export function repeatAgreementOf(score: Score | null | undefined): number | undefined {
  const meta = judgeMetadataOf(score);
  if (!meta) return undefined;
  if (typeof meta.agreement === 'number') return meta.agreement;
  const repeated = repeatedValuesOf(score);
  if (!repeated) return undefined;
  const counts = new Map<number, number>();
  for (const v of repeated) counts.set(v, (counts.get(v) ?? 0) + 1);
  return Math.max(...counts.values()) / repeated.length;
}

/** The judge's calls, tokens and cost over a model-graded scorer's calls. */
export type JudgeTotals = Pick<JudgeMetadata, 'model' | 'calls' | 'inputTokens' | 'outputTokens' | 'costUsd'>;

/**
 * `metadata.judge` of a score graded through the judge role: the judge's model, then whatever
 * the scorer put there itself (a rubric judgment's audit trail), then the totals. The key order
 * is part of the stored JSON: it is the order FunctionChat's rubric judge always stored.
 */
export function withJudgeTotals(score: Score, totals: JudgeTotals): Score {
  const own = score.metadata?.['judge'];
  const judge = { model: totals.model, ...(own !== null && typeof own === 'object' ? own : {}), calls: totals.calls, inputTokens: totals.inputTokens, outputTokens: totals.outputTokens, costUsd: totals.costUsd };
  return withFields(score, { metadata: withFields(score.metadata ?? {}, { judge }) });
}
