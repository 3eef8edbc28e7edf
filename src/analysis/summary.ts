import type { MetricDeclaration, Metrics, MetricsContext, MetricsFold, ScoredSample, Task } from '../benchmarks/task.js';
import { withFields, DEMO_NOTE, isDemoRun, isNoVerdict, sampleFacts, type Role, type SampleFacts, type Score } from '../core/index.js';
import type { FailFastStop, ResultRecord, ReviewRecord, RoleSpend, RunRecord } from '../store/records.js';
import type { RunState } from '../store/run-state.js';
import type { Store } from '../store/store.js';
import type { ModifiedDataFile } from '../datasets/pinned.js';
import { reviewChanges, reviewReadingOf } from '../benchmarks/review-reading.js';
import { correctedRateOfReviews, type CorrectedDefectRateSummary } from '../benchmarks/corrected-rate.js';
import { describeStop, recordedModifiedData } from './recorded-run.js';
import { recordedStops } from '../store/run-stops.js';
import { requireRun } from '../store/require-run.js';
import { taskOfRun } from '../benchmarks/task-of-run.js';
import { judgeMetadataOf, repeatAgreementOf } from '../judges/judge-metadata.js';
import { RepeatTally } from '../benchmarks/repeat-metrics.js';
import { comparisonOf } from '../benchmarks/comparison.js';

export interface ModelCounts {
  readonly samples: number;
  readonly done: number;
  readonly errors: number;
  /** Samples not attempted yet (an interrupted run). */
  readonly pending: number;
  /** Scores without a verdict, those left to manual analysis included (as stored: a null value). */
  readonly no_verdict: number;
  /** Of `no_verdict`, the answers a paper-faithful reading left to manual analysis (`Task.isManualAnalysis`). */
  readonly manual: number;
  readonly cached: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
  /** null when any call's cost is unknown. */
  readonly cost_usd: number | null;
  readonly errors_by_kind: Readonly<Record<string, number>>;
}

/** What the judge did for one model under test (present when the run has a judge). */
export interface JudgeCounts {
  readonly model: string;
  /** Items the judge graded (the others were final without it, e.g. exact matches). */
  readonly judged: number;
  /** Of those, items whose judgment is no verdict (unparseable after retries, failed calls, tied votes). */
  readonly no_verdict: number;
  readonly calls: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cost_usd: number | null;
}

/** Metrics with human reviews applied in place of the judge's verdicts (present when the run has reviews). */
export interface ReviewedSummary {
  readonly metrics: Metrics;
  /** Items with a review. */
  readonly reviewed: number;
  /** Reviews whose verdict differs from the stored score's (a no verdict made pass or fail counts). */
  readonly changed: number;
  /**
   * For a task whose headline is a judged defect rate (harm, groundedness): that rate corrected
   * for the judge's error measured on the reviews, taken as a random subset (`benchmarks/corrected-rate.ts`).
   */
  readonly corrected_defect_rate?: CorrectedDefectRateSummary;
}

export interface ModelSummary {
  /** Judge-only (or scorer-only) metrics. */
  readonly metrics: Metrics;
  readonly counts: ModelCounts;
  readonly judge?: JudgeCounts;
  readonly reviewed?: ReviewedSummary;
  /** What the task says about the samples beyond the metrics (`Task.summaryNotes`); absent when it says nothing. */
  readonly notes?: readonly string[];
}

/** A model stopped early (`FailFastStop`) with the one line that says why and what to do. */
export interface StoppedModel extends FailFastStop {
  readonly advice: string;
}

/** What one role's calls, answered by one model, add up to over the run (every attempt a call). */
export interface RoleCost {
  readonly role: Role;
  readonly model: string;
  readonly calls: number;
  readonly failed_calls: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
  /** null when a successful call's cost is unknown (a paid model without a price). */
  readonly cost_usd: number | null;
}

/** The `--json` summary: one object, stable keys. */
export interface RunSummary {
  readonly run: string;
  readonly task: string;
  /** How the run stands; `stale` only from `assay show` (stored as running, its process gone: see `RunState`). */
  readonly status: RunState;
  /** `DEMO_NOTE` when the run was made by `assay demo` (scripted answers: its numbers measure nothing); absent otherwise. */
  readonly demo?: string;
  /** Pinned data files the run read with other bytes (`--allow-modified-data`); absent on the pinned data. */
  readonly modified_data?: readonly ModifiedDataFile[];
  /**
   * Models the run's last session stopped because their errors repeat for every sample (why the
   * run is interrupted), each with `advice`: the provider's message and what to fix before
   * `assay resume`. Absent when there were none.
   */
  readonly fail_fast?: readonly StoppedModel[];
  readonly models: Readonly<Record<string, ModelSummary>>;
  /** The run's calls by role (model under test, simulated user, judge) and answering model, from the stored calls. */
  readonly cost_by_role: readonly RoleCost[];
}

/** What the summary reads of a sample's result (a stored `ResultRecord` has all of it). */
export type SummarizedResult = Pick<ResultRecord, 'sampleId' | 'repeat' | 'status' | 'score' | 'error' | 'cached' | 'usage' | 'costUsd'>;

/**
 * The key of a result in a map of a run's results (`SummaryPage`, a report's details): its sample id
 * for repeat 0 (every run without repeats), the id and the repeat joined by a NUL for a later one.
 */
export const resultKey = (sampleId: string, repeat: number | undefined): string => (repeat === undefined || repeat === 0 ? sampleId : `${sampleId}\u0000${repeat}`);

/** A page of a run as the summary reads it: its samples' facts and their results' facts, by model and result key. */
export interface SummaryPage {
  readonly samples: readonly SampleFacts[];
  readonly results: ReadonlyMap<string, ReadonlyMap<string, SummarizedResult>>;
}

/**
 * Results read per page when the summary reads the store: its memory is this page's, not the
 * run's. Small, because a page read in full is alive across the young generation's scavenges
 * while it is counted: at 2,000 (a MetaTool page allocates ~10 MB) each page outlived two
 * scavenges and was promoted, and the old space grew by ~25 MB at the end of a 19,793-sample run
 * with no full GC to take it back; at 250 a page dies young (docs/benchmarks.md, section
 * "the end of a run"). A page is counted in results, not samples: a sample has a result per
 * model and repeat, and pages of 250 samples at 5 repeats (1,250 results) took a 98,965-call run's
 * summary from 55 to 122 MB of RSS, 112 counted in results (docs/benchmarks.md, "the summary's
 * memory at 100,000 calls"). The statements cost ~0.1 ms a page.
 */
export const SUMMARY_PAGE = 250;

/** Samples per page: {@link SUMMARY_PAGE} results over each sample's results (one per model and repeat), at least one. */
export const summaryPageSamples = (models: number, repeats: number): number => Math.max(1, Math.floor(SUMMARY_PAGE / Math.max(1, models * repeats)));

/**
 * Computes metrics and counts from what the store holds: no model is called, and the task is not
 * prepared again (its metrics read the stored samples' facts, scores, options and facts). The
 * store is read a page of samples and their results at a time, the samples' facts only (no input
 * is read: `Store.sampleFacts`) and what it reads of their results (`Store.resultFacts`). A task
 * whose metrics fold (`Task.metricsFold`) is summarized in memory independent of the run's size:
 * each row is counted and let go. Otherwise, or when something else reads every row (the
 * model's reviews, the task's notes), what is held to the end is, per sample, its facts and each
 * model's score; with repeats, each decided sample's number of passes (`RepeatTally`).
 * `onPage`: told each page as it is read, for a caller that needs the same facts (a report's
 * index), so that the store is read once.
 */
export async function summarizeRun(store: Store, run: RunRecord, task: Task, onPage?: (page: SummaryPage) => void): Promise<RunSummary> {
  return (await SummaryReader.open(store, run, task, onPage)).finish(run);
}

/**
 * A run's summary read from the store a page at a time, in the run's order (see `summarizeRun`).
 * A run in progress may have the pages read whose samples are final (`readBelow`: every result
 * they will have is stored) while its calls are in flight, so that its end reads only the rest;
 * the pages are folded in the same order either way, so the summary is the same.
 */
export class SummaryReader {
  /** Samples folded so far: the next page starts here. */
  private read = 0;
  /** Whether a page read came back short: the store has no sample past it. */
  private ended = false;

  private constructor(
    private readonly store: Store,
    private readonly run: RunRecord,
    private readonly task: Task,
    private readonly reviews: readonly ReviewRecord[],
    private readonly tallies: ReadonlyMap<string, ModelTally>,
    private readonly byRepeat: ReadonlyMap<string, RepeatTally>,
    private readonly onPage: ((page: SummaryPage) => void) | undefined,
  ) {}

  /** Opens the summary of `run` (its reviews read now: they decide what each model's tally keeps). */
  static async open(store: Store, run: RunRecord, task: Task, onPage?: (page: SummaryPage) => void): Promise<SummaryReader> {
    const reviews = await store.reviews(run.id);
    const context: MetricsContext = { options: run.options, facts: run.metricsFacts };
    const tallies = new Map(
      run.models.map((modelId) => {
        const keepRows = keepsRows(task, reviews.some((r) => r.modelId === modelId));
        return [modelId, new ModelTally(task, context, { keepRows, judged: run.judge !== undefined, judgeRepeats: run.judge?.repeats ?? 1 })];
      }),
    );
    // Each sample's k scores are read into the repeat metrics' folds and let go (they are many).
    const comparison = comparisonOf(task);
    const k = run.repeats ?? 1;
    const byRepeat = new Map(run.models.map((modelId) => [modelId, new RepeatTally(comparison, k)]));
    return new SummaryReader(store, run, task, reviews, tallies, byRepeat, onPage);
  }

  private get pageSamples(): number {
    return summaryPageSamples(this.run.models.length, this.run.repeats ?? 1);
  }

  /**
   * Folds the whole pages below position `final` not read yet: the caller knows that every result
   * the samples before it will have is stored (none is written, replaced or added later).
   */
  async readBelow(final: number): Promise<void> {
    const size = this.pageSamples;
    while (!this.ended && this.read + size <= final) await this.readPage(size);
  }

  /**
   * Reads the pages not read yet and returns the summary. `run`: the same run as it ends (its
   * status, its stops, its count of samples). Reviews added since `open` (an `assay review` of a
   * run in progress) are read: the summary is then read again from the start.
   */
  async finish(run: RunRecord): Promise<RunSummary> {
    if (this.read > 0 && !sameReviews(await this.store.reviews(run.id), this.reviews)) {
      return (await SummaryReader.open(this.store, run, this.task, this.onPage)).finish(run);
    }
    const size = this.pageSamples;
    while (!this.ended) await this.readPage(size);
    return this.summary(run);
  }

  private async readPage(size: number): Promise<void> {
    const page = await storedPage(this.store, this.run.id, this.read, size);
    if (page.samples.length < size) this.ended = true;
    if (page.samples.length === 0) return;
    this.read += page.samples.length;
    this.onPage?.(page);
    this.fold(page);
  }

  private fold(page: SummaryPage): void {
    // With repeats: a task's own metrics read repeat 0 (the run as one without repeats would be);
    // the counts count every repeat; the repeat metrics read every sample's k scores.
    const k = this.run.repeats ?? 1;
    for (const sample of page.samples) {
      const facts = sampleFacts(sample);
      for (const [modelId, tally] of this.tallies) {
        const results = page.results.get(modelId);
        const result = results?.get(sample.id);
        if (result) tally.add(facts, result);
        if (k === 1) continue;
        const scores: (Score | undefined)[] = [result?.status === 'done' ? (result.score ?? undefined) : undefined];
        for (let repeat = 1; repeat < k; repeat++) {
          const later = results?.get(resultKey(sample.id, repeat));
          if (later) tally.count(later);
          scores.push(later?.status === 'done' ? (later.score ?? undefined) : undefined);
        }
        this.byRepeat.get(modelId)?.add(scores);
      }
    }
  }

  private async summary(run: RunRecord): Promise<RunSummary> {
    const { task, reviews } = this;
    const k = run.repeats ?? 1;
    const context: MetricsContext = { options: run.options, facts: run.metricsFacts };
    // A run stopped before storing all its samples: the rest are pending, and known by count.
    const sampleCount = Math.max(run.sampleCount ?? 0, this.read);
    const models: Record<string, ModelSummary> = {};
    for (const [modelId, tally] of this.tallies) {
      const rows = tally.rows ?? [];
      const judge = run.judge ? tally.judgeCounts(run.judge.model) : undefined;
      const agreement: Metrics = run.judge && run.judge.repeats > 1 ? { judge_agreement: tally.meanAgreement() } : {};
      const modelReviews = reviews.filter((r) => r.modelId === modelId);
      models[modelId] = {
        ...(judge ? { judge } : {}),
        ...(modelReviews.length > 0 ? { reviewed: reviewedSummary(task, context, rows, modelReviews) } : {}),
        metrics: { ...tally.metrics(), ...agreement, ...(k > 1 ? (this.byRepeat.get(modelId)?.metrics(run.seed) ?? {}) : {}) },
        counts: tally.counts(sampleCount, k),
      };
      const notes = task.summaryNotes?.(rows, context) ?? [];
      if (notes.length > 0) models[modelId] = { ...(models[modelId] as ModelSummary), notes };
    }
    const modified = recordedModifiedData(run);
    const stopped = recordedStops(run).map((stop): StoppedModel => ({ ...stop, advice: describeStop(stop, run.id, run) }));
    const costByRole = (await this.store.runSpend(run.id)).map(roleCost);
    return {
      run: run.id,
      task: run.task,
      status: run.status,
      ...(isDemoRun(run) ? { demo: DEMO_NOTE } : {}),
      ...(modified.length > 0 ? { modified_data: modified } : {}),
      ...(stopped.length > 0 ? { fail_fast: stopped } : {}),
      models,
      cost_by_role: costByRole,
    };
  }
}

/** Whether two reads of a run's reviews found the same reviews (each review's every field, in the store's order). */
const sameReviews = (a: readonly ReviewRecord[], b: readonly ReviewRecord[]): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The run's stored samples' facts a page at a time, each with its results' facts (every model's: `Store.resultFacts`). */
export async function* storedPages(store: Store, runId: string, pageSamples: number): AsyncGenerator<SummaryPage> {
  for (let from = 0; ; from += pageSamples) {
    const page = await storedPage(store, runId, from, pageSamples);
    if (page.samples.length === 0) return;
    yield page;
    if (page.samples.length < pageSamples) return;
  }
}

/** The stored samples' facts at positions `from` to `from + limit`, with their results' facts by model and result key. */
async function storedPage(store: Store, runId: string, from: number, limit: number): Promise<SummaryPage> {
  const range = { from, limit };
  const samples = await store.sampleFacts(runId, range);
  const results = new Map<string, Map<string, SummarizedResult>>();
  if (samples.length === 0) return { samples, results };
  for (const r of await store.resultFacts(runId, range)) {
    let byId = results.get(r.modelId);
    if (!byId) results.set(r.modelId, (byId = new Map()));
    byId.set(resultKey(r.sampleId, r.repeat), r);
  }
  return { samples, results };
}

/**
 * Whether a model's summary keeps every sample's row: for whatever reads them all — a task's
 * metrics that do not fold, the reviewed metrics (`hasReviews`: the model has reviews), the
 * task's notes. Otherwise each row is counted into the fold and let go.
 */
export const keepsRows = (task: Pick<Task, 'metricsFold' | 'summaryNotes'>, hasReviews: boolean): boolean =>
  task.metricsFold === undefined || task.summaryNotes !== undefined || hasReviews;

/** What a {@link ModelTally} keeps and counts besides the counts every summary has. */
interface TallyNeeds {
  /** Keep every row (the task's metrics do not fold, or the reviews or notes read the rows). */
  readonly keepRows: boolean;
  /** The run has a judge: count what it did (`JudgeCounts`). */
  readonly judged: boolean;
  /** The judge's repeats: above 1, the mean agreement among them is taken. */
  readonly judgeRepeats: number;
}

/**
 * One model's counts, its metrics' fold (or the rows its metrics read) and its judge's counts,
 * added to a sample at a time in run order.
 */
class ModelTally {
  /** Every sample's row, kept only when something reads them all ({@link TallyNeeds.keepRows}). */
  readonly rows: ScoredSample[] | undefined;
  private readonly fold: MetricsFold | undefined;
  private done = 0;
  private errors = 0;
  private noVerdict = 0;
  private manual = 0;
  private cached = 0;
  private inputTokens = 0;
  private outputTokens = 0;
  private cost: number | null = 0;
  private readonly errorsByKind: Record<string, number> = {};
  private readonly judge = { judged: 0, noVerdict: 0, calls: 0, inputTokens: 0, outputTokens: 0, cost: 0 as number | null };
  private agreementSum = 0;
  private agreements = 0;

  constructor(
    private readonly task: Pick<Task, 'isManualAnalysis' | 'metrics' | 'metricsFold'>,
    private readonly context: MetricsContext,
    private readonly needs: TallyNeeds,
  ) {
    this.fold = task.metricsFold?.(context);
    this.rows = needs.keepRows ? [] : undefined;
  }

  add(sample: SampleFacts, result: SummarizedResult): void {
    // As `ScoredSample` says: a sample that ended in error has no score. Metrics that count
    // errors apart (judged summaries, groundedness) see it; the others leave it out.
    const row: ScoredSample = { sample, score: result.status === 'done' && result.score ? result.score : undefined };
    this.fold?.add(row);
    this.rows?.push(row);
    if (this.needs.judged) this.countJudge(row.score);
    this.count(result);
  }

  /** The task's metrics: its fold's, or its `metrics` over the rows kept. */
  metrics(): Metrics {
    return this.fold ? this.fold.finish() : this.task.metrics(this.rows ?? [], this.context);
  }

  private countJudge(score: Score | undefined): void {
    const judge = judgeMetadataOf(score);
    if (!judge) return;
    const j = this.judge;
    j.judged++;
    if (score && isNoVerdict(score)) j.noVerdict++;
    j.calls += judge.calls;
    j.inputTokens += judge.inputTokens;
    j.outputTokens += judge.outputTokens;
    j.cost = j.cost === null || judge.costUsd === null ? null : j.cost + judge.costUsd;
    if (this.needs.judgeRepeats <= 1) return;
    const agreement = repeatAgreementOf(score);
    if (agreement === undefined) return;
    this.agreementSum += agreement;
    this.agreements++;
  }

  judgeCounts(model: string): JudgeCounts {
    const j = this.judge;
    return { model, judged: j.judged, no_verdict: j.noVerdict, calls: j.calls, input_tokens: j.inputTokens, output_tokens: j.outputTokens, cost_usd: j.cost };
  }

  /** Mean agreement among the judge's repeats over the judged items; null when none was judged. */
  meanAgreement(): number | null {
    return this.agreements === 0 ? null : this.agreementSum / this.agreements;
  }

  /** Counts a result without giving the task's metrics a row (a later repeat's). */
  count(result: SummarizedResult): void {
    if (result.status === 'done' && result.score) {
      this.done++;
      if (isNoVerdict(result.score)) this.noVerdict++;
      if (this.task.isManualAnalysis?.(result.score) === true) this.manual++;
    } else {
      this.errors++;
      const kind = result.error?.kind ?? 'unknown';
      this.errorsByKind[kind] = (this.errorsByKind[kind] ?? 0) + 1;
    }
    if (result.cached) this.cached++;
    this.inputTokens += result.usage.inputTokens ?? 0;
    this.outputTokens += result.usage.outputTokens ?? 0;
    this.cost = this.cost === null || result.costUsd === null ? null : this.cost + result.costUsd;
  }

  /** `repeats`: each sample is k results (done, errors and pending count results then). */
  counts(samples: number, repeats = 1): ModelCounts {
    const attempted = this.done + this.errors;
    return {
      samples,
      done: this.done,
      errors: this.errors,
      pending: samples * repeats - attempted,
      no_verdict: this.noVerdict,
      manual: this.manual,
      cached: this.cached,
      input_tokens: this.inputTokens,
      output_tokens: this.outputTokens,
      cost_usd: attempted === 0 ? 0 : this.cost,
      errors_by_kind: this.errorsByKind,
    };
  }
}

function roleCost(spend: RoleSpend): RoleCost {
  return {
    role: spend.role,
    model: spend.model,
    calls: spend.calls,
    failed_calls: spend.failedCalls,
    input_tokens: spend.inputTokens,
    output_tokens: spend.outputTokens,
    cost_usd: spend.unpriced > 0 ? null : spend.usd,
  };
}

/** The one metric the summary adds to a task's own, for a run whose judge repeats (`judge_agreement`). */
export const JUDGE_AGREEMENT_DECLARATION: MetricDeclaration = {
  name: 'judge_agreement',
  meaning: 'mean share of the judge’s repeats that agree with its most common answer (1 = it always agrees with itself)',
  unit: 'share',
  direction: 'higher',
  interval: 'none',
};

/**
 * The metrics again with each reviewed item's verdict in place of its score's pass or fail: in the
 * score's value (what metrics of a boolean value read) and as the row's `review` (what metrics of
 * a judge's grading read, `judgedRows`). A change is a review that differs from the task's
 * reading of the stored score (`reviewReadingOf`).
 */
function reviewedSummary(task: Task, context: MetricsContext, rows: readonly ScoredSample[], reviews: readonly ReviewRecord[]): ReviewedSummary {
  const bySample = new Map(reviews.map((r) => [r.sampleId, r]));
  const reading = reviewReadingOf(task, context);
  let changed = 0;
  const reviewedRows = rows.map((row): ScoredSample => {
    const review = bySample.get(row.sample.id);
    if (!review || !row.score) return row;
    if (reviewChanges(reading, row.score, review.verdict)) changed++;
    const explanation = `reviewed: ${review.verdict ? 'pass' : 'fail'}${review.note ? ` (${review.note})` : ''}`;
    return { sample: row.sample, score: withFields(row.score, { value: review.verdict, explanation }), review: review.verdict };
  });
  const corrected = correctedRateOfReviews(task, context, rows, new Map(reviews.map((r) => [r.sampleId, r.verdict])));
  return { metrics: task.metrics(reviewedRows, context), reviewed: reviews.length, changed, ...(corrected ? { corrected_defect_rate: corrected } : {}) };
}

/**
 * Recomputes the summary of a stored run from the store alone: no model is called and no data
 * dir is read (a run made on another machine is summarized as it is).
 */
export async function summarizeStoredRun(store: Store, runIdOrPrefix: string): Promise<RunSummary> {
  const run = await requireRun(store, runIdOrPrefix);
  return summarizeRun(store, run, taskOfRun(run));
}
