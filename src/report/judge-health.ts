import type { MetricValue } from '../benchmarks/task.js';
import type { ReviewReading } from '../benchmarks/review-reading.js';
import { isReaskStep, type Score } from '../core/index.js';
import { judgeMetadataOf, repeatAgreementOf } from '../judges/judge-metadata.js';
import type { ModelSummary } from '../analysis/summary.js';
import type { JudgeConfig, ReviewRecord, StepCount } from '../store/records.js';
import type { JudgeHealth } from './report-shapes.js';
export type { JudgeHealth } from './report-shapes.js';

/** What judge health reads of one stored result. */
export interface JudgedRow {
  readonly sampleId: string;
  readonly score: Score | null;
}

/**
 * The judge's calls for one model's samples by step label (`Store.stepCounts`): re-asks are the
 * calls labelled `step#k`; null when some call has no label (a run made before judge calls had them).
 */
export function reasksOf(steps: readonly StepCount[], model: string): number | null {
  let reasks = 0;
  for (const { model: m, step, calls } of steps) {
    if (m !== model) continue;
    if (step === null) return null;
    if (isReaskStep(step)) reasks += calls;
  }
  return reasks;
}

export function judgeHealth(judge: JudgeConfig, model: string, summary: ModelSummary, rows: readonly JudgedRow[], reviews: readonly ReviewRecord[], reasks: number | null, reading: ReviewReading): JudgeHealth {
  const agreements: number[] = [];
  const judgedValue = new Map<string, boolean>();
  for (const { sampleId, score } of rows) {
    const meta = judgeMetadataOf(score);
    if (!meta) continue;
    const agreement = repeatAgreementOf(score);
    const repeatedVotes = !Array.isArray(meta.votes) || meta.votes.length > 1;
    if (agreement !== undefined && repeatedVotes) agreements.push(agreement);
    const verdict = score ? reading(score) : null;
    if (verdict !== null) judgedValue.set(sampleId, verdict);
  }
  const counts = summary.judge;
  const judged = counts?.judged ?? 0;
  const noVerdict = counts?.no_verdict ?? 0;
  const judgeErrors = Object.entries(summary.counts.errors_by_kind).reduce((n, [kind, count]) => (kind.startsWith('judge-') ? n + count : n), 0);
  const mine = reviews.filter((r) => r.modelId === model);
  let compared = 0;
  let agree = 0;
  for (const review of mine) {
    const verdict = judgedValue.get(review.sampleId);
    if (verdict === undefined) continue;
    compared++;
    if (verdict === review.verdict) agree++;
  }
  const labels = summary.metrics['human_agreement'];
  return {
    model,
    judge: judge.model,
    repeats: judge.repeats,
    selfGrading: judge.selfGrading,
    judged,
    noVerdict,
    noVerdictShare: judged === 0 ? null : noVerdict / judged,
    calls: counts?.calls ?? 0,
    reasks,
    judgeErrors,
    agreement: agreements.length === 0 ? null : agreements.reduce((a, b) => a + b, 0) / agreements.length,
    unanimous: agreements.length === 0 ? null : agreements.filter((a) => a === 1).length / agreements.length,
    reviews: mine.length === 0 ? null : { reviewed: mine.length, compared, agree, share: compared === 0 ? null : agree / compared, changed: summary.reviewed?.changed ?? 0 },
    labels: labels === undefined ? null : labels,
  };
}
