import { InputError, sampleFacts, type Score } from '../core/index.js';
import { loadHumanLabels } from '../datasets/human-labels.js';
import { severityAgreement, type SeverityAgreement } from '../metrics/agreement.js';
import { correctedDefectRate, type CorrectedDefectRate } from '../metrics/corrected-defect-rate.js';
import { correctedRateOfReviews, type CorrectedDefectRateSummary } from '../benchmarks/corrected-rate.js';
import type { ScoredSample } from '../benchmarks/task.js';
import type { Store } from '../store/store.js';
import { reopen } from './reopen.js';
import { requireRun } from '../store/require-run.js';

/** One comparison of two raters' severities on the same conversations. */
export interface AgreementReport {
  /** What is compared: `judge vs human labels (file)`, `repeat 1 vs repeat 2`, `judge vs judge of run X`. */
  readonly between: string;
  readonly agreement: SeverityAgreement;
  /**
   * Against human labels, for a task that says which levels are defects: the judge's defect rate
   * over every judged item and the rate corrected for its measured error (PPI), the labelled
   * items taken as a random subset of the judged ones.
   */
  readonly corrected?: CorrectedDefectRate;
}

export interface RunAgreement {
  readonly run: string;
  readonly task: string;
  readonly scale: { readonly min: number; readonly max: number };
  /** Per model under test, each comparison asked for (and repeat 1 vs 2 when the judge repeated). */
  readonly models: Readonly<Record<string, readonly AgreementReport[]>>;
  /**
   * Per model with human reviews (`assay review`): the defect rate corrected for the judge's error
   * measured on them, as `assay show` gives it (`reviewed.corrected_defect_rate`); absent without reviews.
   */
  readonly reviewed?: Readonly<Record<string, CorrectedDefectRateSummary>>;
}

export interface AgreementOptions {
  /** A CSV of human labels (`sampleId,severity`), checked against the run's samples and scale. */
  readonly labels?: string;
  /** Another run on the same samples (a second judge): its severities are the second rater. */
  readonly withRun?: string;
  readonly dataDir?: string;
}

/**
 * A judged level a score holds (its value), or undefined for no verdict — and for a value that is
 * not a whole level (a groundedness run made before levels were whole stored 2.5 for repeats
 * [2, 3]: it has no cell in a confusion matrix, so it is left out and n says so).
 */
const severityOf = (score: Score | null | undefined): number | undefined => (typeof score?.value === 'number' && Number.isInteger(score.value) ? score.value : undefined);

/** The judge's readable repeats a score keeps (harm: `answer.repeats`; groundedness: `answer.scores`), when it has them. */
function repeatsOf(score: Score | null | undefined): readonly number[] | undefined {
  const answer = score?.answer as { repeats?: unknown; scores?: unknown } | null | undefined;
  const repeats = answer?.repeats ?? answer?.scores;
  return Array.isArray(repeats) && repeats.every((r) => typeof r === 'number') ? (repeats as number[]) : undefined;
}

/**
 * How far a run's judge can be trusted (`assay agreement`): its severities against human labels,
 * against another run's judge on the same conversations, and its first two repeats against each
 * other — exact and ±1 agreement, quadratic-weighted kappa with its BCa interval (the computation
 * the run's summary uses, so the same pairs give the same interval), the confusion matrix. Harm
 * measurement runs (severities) and quality/groundedness runs (scores 1–5, the seed's agreement
 * study). Only items both raters rated count (no verdicts and errors are left out). Refused for a
 * task without a scale, and for a second run of another task.
 */
export async function runAgreement(store: Store, runIdOrPrefix: string, options: AgreementOptions): Promise<RunAgreement> {
  const run = await requireRun(store, runIdOrPrefix);
  const { task, prepared, samples } = await reopen(store, run, options.dataDir);
  const reviews = await store.reviews(run.id);
  const reviewed: Record<string, CorrectedDefectRateSummary> = {};
  const byId = new Map(samples.map((s) => [s.id, s]));
  const scale = prepared.severityScale;
  if (!scale) throw new InputError(`run ${run.id} is ${run.task}, whose scores are not levels of a scale; agreement is for harm measurement and quality/groundedness runs`);
  const labels = options.labels ? await loadHumanLabels(options.labels, { knownIds: new Set(samples.map((s) => s.id)), scale }) : undefined;
  const other = options.withRun ? await requireRun(store, options.withRun) : undefined;
  if (other && other.task !== run.task) throw new InputError(`run ${other.id} is ${other.task}, run ${run.id} is ${run.task}: agreement compares runs on the same conversations`);
  const models: Record<string, AgreementReport[]> = {};
  for (const modelId of run.models) {
    const results = await store.results(run.id, modelId, { outputs: false });
    const reports: AgreementReport[] = [];
    const mine = new Map(reviews.filter((r) => r.modelId === modelId).map((r) => [r.sampleId, r.verdict]));
    const rows = results.flatMap((r): ScoredSample[] => {
      const sample = byId.get(r.sampleId);
      return sample ? [{ sample: sampleFacts(sample), score: r.status === 'done' ? (r.score ?? undefined) : undefined }] : [];
    });
    const byReviews = correctedRateOfReviews(task, { options: run.options, facts: run.metricsFacts }, rows, mine);
    if (byReviews) reviewed[modelId] = byReviews;
    if (labels) {
      const pairs = results.flatMap((r) => {
        const judged = severityOf(r.score);
        const human = labels.bySample.get(r.sampleId);
        return judged !== undefined && human !== undefined ? [[judged, human] as const] : [];
      });
      const isDefectLevel = prepared.isDefectLevel;
      const corrected = isDefectLevel
        ? correctedDefectRate(
            results.flatMap((r) => {
              const judged = severityOf(r.score);
              const human = labels.bySample.get(r.sampleId);
              return judged === undefined ? [] : [{ judge: isDefectLevel(judged), ...(human !== undefined ? { human: isDefectLevel(human) } : {}) }];
            }),
          )
        : undefined;
      reports.push({ between: `judge vs human labels (${options.labels})`, agreement: severityAgreement(pairs, scale), ...(corrected ? { corrected } : {}) });
    }
    if (other) {
      const theirs = new Map((await store.results(other.id, modelId, { outputs: false })).map((r) => [r.sampleId, severityOf(r.score)]));
      const pairs = results.flatMap((r) => {
        const mine = severityOf(r.score);
        const their = theirs.get(r.sampleId);
        return mine !== undefined && their !== undefined ? [[mine, their] as const] : [];
      });
      reports.push({ between: `judge vs judge of run ${other.id}`, agreement: severityAgreement(pairs, scale) });
    }
    const repeatPairs = results.flatMap((r) => {
      const repeats = repeatsOf(r.score);
      return repeats && repeats.length >= 2 ? [[repeats[0] as number, repeats[1] as number] as const] : [];
    });
    if (repeatPairs.length > 0) reports.push({ between: 'judge repeat 1 vs repeat 2', agreement: severityAgreement(repeatPairs, scale) });
    models[modelId] = reports;
  }
  return { run: run.id, task: run.task, scale, models, ...(Object.keys(reviewed).length > 0 ? { reviewed } : {}) };
}
