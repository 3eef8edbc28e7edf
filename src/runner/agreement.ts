import { InputError, rngFor, type Score } from '../core/index.js';
import { loadHumanLabels } from '../datasets/harm/index.js';
import { severityAgreement, type SeverityAgreement } from '../metrics/agreement.js';
import type { Store } from '../store/store.js';
import { reopen, requireRun } from './run.js';

/** One comparison of two raters' severities on the same conversations. */
export interface AgreementReport {
  /** What is compared: `judge vs human labels (file)`, `repeat 1 vs repeat 2`, `judge vs judge of run X`. */
  readonly between: string;
  readonly agreement: SeverityAgreement;
}

export interface RunAgreement {
  readonly run: string;
  readonly task: string;
  readonly scale: { readonly min: number; readonly max: number };
  /** Per model under test, each comparison asked for (and repeat 1 vs 2 when the judge repeated). */
  readonly models: Readonly<Record<string, readonly AgreementReport[]>>;
}

export interface AgreementOptions {
  /** A CSV of human labels (`sampleId,severity`), checked against the run's samples and scale. */
  readonly labels?: string;
  /** Another run on the same samples (a second judge): its severities are the second rater. */
  readonly withRun?: string;
  readonly dataDir?: string;
}

/** A judged severity a score holds (its value on the scale), or undefined for no verdict. */
const severityOf = (score: Score | null | undefined): number | undefined => (typeof score?.value === 'number' ? score.value : undefined);

/** The judge's readable repeats a harm score keeps (`answer.repeats`), when it has them. */
function repeatsOf(score: Score | null | undefined): readonly number[] | undefined {
  const repeats = (score?.answer as { repeats?: unknown } | null | undefined)?.repeats;
  return Array.isArray(repeats) && repeats.every((r) => typeof r === 'number') ? (repeats as number[]) : undefined;
}

/**
 * How far a run's judge can be trusted (`assay agreement`): its severities against human labels,
 * against another run's judge on the same conversations, and its first two repeats against each
 * other — exact and ±1 agreement, quadratic-weighted kappa with a seeded bootstrap interval, the
 * confusion matrix. Only conversations both raters rated count (no verdicts and errors are left
 * out). Refused for a task without a severity scale, and for a second run of another task.
 */
export async function runAgreement(store: Store, runIdOrPrefix: string, options: AgreementOptions): Promise<RunAgreement> {
  const run = await requireRun(store, runIdOrPrefix);
  const { prepared, samples } = await reopen(store, run, options.dataDir);
  const scale = prepared.severityScale;
  if (!scale) throw new InputError(`run ${run.id} is ${run.task}, whose scores are not severities on a scale; agreement is for harm measurement runs`);
  const labels = options.labels ? await loadHumanLabels(options.labels, { knownIds: new Set(samples.map((s) => s.id)), scale }) : undefined;
  const other = options.withRun ? await requireRun(store, options.withRun) : undefined;
  if (other && other.task !== run.task) throw new InputError(`run ${other.id} is ${other.task}, run ${run.id} is ${run.task}: agreement compares runs on the same conversations`);
  const models: Record<string, AgreementReport[]> = {};
  for (const modelId of run.models) {
    const results = await store.results(run.id, modelId, { outputs: false });
    const reports: AgreementReport[] = [];
    const rng = (what: string) => ({ rng: rngFor(run.seed, `agreement:${modelId}:${what}`) });
    if (labels) {
      const pairs = results.flatMap((r) => {
        const judged = severityOf(r.score);
        const human = labels.bySample.get(r.sampleId);
        return judged !== undefined && human !== undefined ? [[judged, human] as const] : [];
      });
      reports.push({ between: `judge vs human labels (${options.labels})`, agreement: severityAgreement(pairs, scale, rng('labels')) });
    }
    if (other) {
      const theirs = new Map((await store.results(other.id, modelId, { outputs: false })).map((r) => [r.sampleId, severityOf(r.score)]));
      const pairs = results.flatMap((r) => {
        const mine = severityOf(r.score);
        const their = theirs.get(r.sampleId);
        return mine !== undefined && their !== undefined ? [[mine, their] as const] : [];
      });
      reports.push({ between: `judge vs judge of run ${other.id}`, agreement: severityAgreement(pairs, scale, rng('runs')) });
    }
    const repeatPairs = results.flatMap((r) => {
      const repeats = repeatsOf(r.score);
      return repeats && repeats.length >= 2 ? [[repeats[0] as number, repeats[1] as number] as const] : [];
    });
    if (repeatPairs.length > 0) reports.push({ between: 'judge repeat 1 vs repeat 2', agreement: severityAgreement(repeatPairs, scale, rng('repeats')) });
    models[modelId] = reports;
  }
  return { run: run.id, task: run.task, scale, models };
}
