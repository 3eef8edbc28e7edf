import { engineView } from '../store/run-events.js';
import { declarationOf } from '../benchmarks/metric-declarations.js';
import type { MetricDeclaration, Metrics } from '../benchmarks/task.js';
import { InputError, type GenerateSettings, type TaskOptions } from '../core/index.js';
import { recordedModifiedData } from '../analysis/recorded-run.js';
import { taskOfRun } from '../benchmarks/task-of-run.js';
import { requireRun } from '../store/require-run.js';
import { reviewReadingOfRun } from '../analysis/review.js';
import { applicationTargetNote } from './application-targets.js';
import { resultKey, summarizeRun, type ModelSummary, type RunSummary, type SummaryPage } from '../analysis/summary.js';
import type { JudgeConfig, ResultRecord, ReviewRecord, RunRecord } from '../store/records.js';
import { readRunState, type RunState, type StoredLease } from '../store/run-state.js';
import type { Store } from '../store/store.js';
import { toolkitVersion } from '../version.js';
import { renderLeaseNote } from './console.js';
import { judgeHealth, reasksOf, type JudgeHealth, type JudgedRow } from './judge-health.js';
import { runMetricDeclarations } from './metric-format.js';
import { metricTable, type MetricTable } from './metric-table.js';
import { resolveCharts, type ChartData } from './report-charts.js';
import { ROW_FLAGS, VERDICTS, reviewChangesResult, sampleDetail, verdictOf, type SampleDetail, type SampleIndex, type Verdict } from './sample-rows.js';

/** The version of the {@link RunReport} shape; bump on any change a reader of the JSON would notice. */
export const RUN_REPORT_SCHEMA = 1;

/** What explains a run's numbers: every field of its record that bears on them, its state now and how long it took. */
export interface RunOverview {
  readonly run: string;
  readonly task: string;
  readonly taskVersion: string;
  readonly taskDescription: string;
  /** The state now (`readRunState`: a live lease is `running`, a dead one `stale`), and a line on who holds it. */
  readonly status: RunState;
  readonly statusNote?: string;
  /** The lease a process holds on the run now (as `assay show --json` gives it); absent when none is stored. */
  readonly lease?: StoredLease;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** From creation to the last status change (a resumed run: the pause included). */
  readonly durationMs: number;
  readonly models: readonly string[];
  readonly judge: JudgeConfig | null;
  readonly userModel: string | null;
  readonly settings: GenerateSettings;
  readonly seed: number;
  readonly options: TaskOptions;
  readonly datasetChecksums: Readonly<Record<string, string>>;
  /** Pinned files the run read with other bytes (`--allow-modified-data`): its numbers are not the benchmark's. */
  readonly modifiedData: NonNullable<RunSummary['modified_data']>;
  /** A harm run whose system under test is an application target: what its results are of (`application-targets.ts`); absent otherwise. */
  readonly applicationTargetNote?: string;
  readonly promptVersion: string;
  readonly toolkitVersion: string;
  /**
   * The engine settings (concurrency, retries, cache…) with the rest of the run's spec, its
   * provenance and what its events leave recorded beside them, in the one object runs recorded
   * before their record was split (`engineView`), so `show --json` reads as it did; never a key.
   */
  readonly engine: Readonly<Record<string, unknown>>;
  /** Samples the run has, and how many are stored (fewer for a run stopped before storing them all). */
  readonly samples: { readonly total: number; readonly stored: number };
  /** Human reviews stored with the run. */
  readonly reviews: number;
}

/** Which samples' details a report carries (the index always has every sample). */
export type DetailsPolicy =
  /** Every row. */
  | { readonly mode: 'all' }
  /** Every row that is not a pass (fail, no verdict, manual, a number, an error, changed by review). */
  | { readonly mode: 'failing' }
  /** At most `limit` rows, the ones that need a look first (errors, no verdicts, reviewed changes, fails), then in run order. */
  | { readonly mode: 'limit'; readonly limit: number };

/** The default: enough for any small run whole, and for a large one its problems, in a file that opens fast. */
export const DEFAULT_DETAILS: DetailsPolicy = { mode: 'limit', limit: 500 };

/** Reads `--details all|failing|<n>`. */
export function parseDetailsPolicy(text: string): DetailsPolicy {
  if (text === 'all' || text === 'failing') return { mode: text };
  if (/^\d+$/.test(text)) return { mode: 'limit', limit: Number(text) };
  throw new InputError(`--details must be all, failing or a number of samples, got "${text}"`);
}

/**
 * One run, reported: the one view model of a stored run. `assay show` prints its summary (text
 * and `--json`), `assay export` writes its rows from its details, `assay report` draws the HTML
 * page (and its `--json`) from it, as does a viewer. Plain JSON, read from the store alone (no
 * data dir, no model call).
 */
export interface RunReport {
  readonly schema: typeof RUN_REPORT_SCHEMA;
  readonly overview: RunOverview;
  /** The `--json` summary, exactly (its status the state now, as `assay show` gives it). */
  readonly summary: RunSummary;
  /** Models side by side: the judge-only metrics, and with human reviews applied when there are any. */
  readonly tables: { readonly metrics: MetricTable; readonly reviewed?: MetricTable };
  /**
   * What the metrics of this run mean: the task's declarations of the metrics some model has, in
   * the task's order (`assay show --explain`; the tables' rows carry them as `meaning`); empty for a task that declares none.
   */
  readonly metricDeclarations: readonly MetricDeclaration[];
  /** The task's declared charts, resolved against each model's metrics. */
  readonly charts: readonly ChartData[];
  /** Per model under test, when the run has a judge. */
  readonly judgeHealth: readonly JudgeHealth[];
  readonly index: SampleIndex;
  /** Details by index row (as a string key); the rows without are flagged in the index. */
  readonly details: Readonly<Record<string, SampleDetail>>;
  /** `callsOmitted`: the details were built without their calls (`calls: false`; their `calls` are empty). */
  readonly detailsPolicy: DetailsPolicy & { readonly included: number; readonly rows: number; readonly callsOmitted?: true };
}

/** Several runs in one report (`assay report <run> <run>…`). */
export interface ReportBundle {
  readonly schema: typeof RUN_REPORT_SCHEMA;
  readonly generatedAt: string;
  readonly toolkitVersion: string;
  readonly runs: readonly RunReport[];
}

export interface RunReportOptions {
  readonly details?: DetailsPolicy;
  /** false: the details leave out the stored calls (an export has no use for them). Default true. */
  readonly calls?: boolean;
  /** Sample ids whose rows come first under a `limit` (a comparison's changed samples), before errors and the rest. */
  readonly focus?: ReadonlySet<string>;
}

/** What `assay show` prints of a run: the report's summary, the lines its overview adds, and the metrics' declarations. */
export interface RunSummaryView {
  readonly summary: RunSummary;
  readonly lease?: StoredLease;
  readonly statusNote?: string;
  readonly applicationTargetNote?: string;
  readonly metricDeclarations: readonly MetricDeclaration[];
}

/**
 * What `assay show` prints, as `buildRunReport` makes it, without the report's index and details:
 * the summary is read from the store a page at a time (`summarizeRun`), not from every sample and
 * result loaded at once. At 98,965 calls the report's way held the run's samples and results
 * together: `show` peaked at 327 MB (docs/benchmarks.md, "group commit by time").
 */
export async function runSummaryView(store: Store, runIdOrPrefix: string): Promise<RunSummaryView> {
  const run = await requireRun(store, runIdOrPrefix);
  const task = taskOfRun(run);
  const stored = await summarizeRun(store, run, task);
  const { state, lease } = await readRunState(store, run);
  const summary: RunSummary = { ...stored, status: state };
  const statusNote = renderLeaseNote(run.id, state, lease);
  return {
    summary,
    ...(lease ? { lease } : {}),
    ...(statusNote ? { statusNote } : {}),
    ...applicationTargetNoteOf(run),
    metricDeclarations: declaredIn(runMetricDeclarations(task), modelMetricsOf(run.models, summary, (m) => m.metrics)),
  };
}

/** Each model's metrics as `pick` finds them in the summary, in the run's model order; a model without any is left out. */
function modelMetricsOf(models: readonly string[], summary: RunSummary, pick: (model: ModelSummary) => Metrics | undefined): (readonly [string, Metrics])[] {
  return models.flatMap((m) => {
    const model = summary.models[m];
    const metrics = model ? pick(model) : undefined;
    return metrics ? [[m, metrics] as const] : [];
  });
}

/** Lower first: what a reader should look at before the passes. */
const PRIORITY: Readonly<Record<Verdict, number>> = { error: 0, 'no verdict': 1, manual: 2, fail: 3, number: 4, pass: 5, pending: 6 };

function chooseDetails(policy: DetailsPolicy, verdicts: readonly number[], flags: readonly number[], focused: (row: number) => boolean): Set<number> {
  const all = verdicts.map((_, i) => i);
  const verdict = (row: number): Verdict => VERDICTS[verdicts[row] as number] as Verdict;
  const changed = (row: number): boolean => ((flags[row] as number) & ROW_FLAGS.changedByReview) !== 0;
  if (policy.mode === 'all') return new Set(all);
  if (policy.mode === 'failing') return new Set(all.filter((row) => changed(row) || !['pass', 'pending'].includes(verdict(row))));
  const rank = (row: number): number => (focused(row) ? -2 : changed(row) ? -1 : PRIORITY[verdict(row)]);
  return new Set(all.filter((row) => verdict(row) !== 'pending').sort((a, b) => rank(a) - rank(b) || a - b).slice(0, policy.limit));
}

/**
 * Builds one run's report from the store: overview, summary (the same as `assay show --json`),
 * tables, charts, judge health, the sample index and the chosen samples' details.
 */
export async function buildRunReport(store: Store, runIdOrPrefix: string, options: RunReportOptions = {}): Promise<RunReport> {
  const run = await requireRun(store, runIdOrPrefix);
  const task = taskOfRun(run);
  const policy = options.details ?? DEFAULT_DETAILS;
  const wantOutputs = !(policy.mode === 'limit' && policy.limit === 0);
  const reviews = await store.reviews(run.id);
  const reviewOf = new Map<string, ReviewRecord>(reviews.map((r) => [`${r.modelId}\u0000${r.sampleId}`, r]));
  const reading = reviewReadingOfRun(run, task);
  const judge = run.judge;

  // The index: every sample × model, in run order, made from the pages of samples' and results'
  // facts (no input, no output) the summary reads, as it reads them (the store is read once): what
  // is held to the end is a few numbers a row, every sample's id, and with a judge each result's
  // score (judge health). Holding every sample and result with its output instead made the
  // report's memory grow with the run (~4 KB a row).
  const ids: string[] = [];
  const judged = new Map<string, JudgedRow[]>(run.models.map((m) => [m, []]));
  const errorKinds: string[] = [];
  const errorIndex = new Map<string, number>();
  const rows = { sample: [] as number[], model: [] as number[], verdict: [] as number[], error: [] as number[], flags: [] as number[] };
  // With repeats, a row per sample, model and repeat; a run without keeps the index it always had.
  const values: Record<string, number> = {};
  const k = run.repeats ?? 1;
  const repeatOfRow: number[] = [];
  const indexPage = (page: SummaryPage): void => {
    for (const sample of page.samples) {
      const s = ids.push(sample.id) - 1;
      run.models.forEach((model, m) => {
        for (let repeat = 0; repeat < k; repeat++) {
          const result = page.results.get(model)?.get(resultKey(sample.id, repeat));
          if (judge && result) judged.get(model)?.push({ sampleId: result.sampleId, score: result.score });
          const verdict = verdictOf(result, task);
          // A review is of the (sample, model): the first answer's.
          const review = repeat === 0 ? reviewOf.get(`${model}\u0000${sample.id}`) : undefined;
          let error = -1;
          if (result?.error) {
            const kind = result.error.kind;
            error = errorIndex.get(kind) ?? errorKinds.push(kind) - 1;
            errorIndex.set(kind, error);
          }
          const flags = (review ? ROW_FLAGS.reviewed : 0) | (review && reviewChangesResult(reading, result, review) ? ROW_FLAGS.changedByReview : 0) | (result?.cached ? ROW_FLAGS.cached : 0);
          if (verdict === 'number' && typeof result?.score?.value === 'number') values[String(rows.sample.length)] = result.score.value;
          rows.sample.push(s);
          rows.model.push(m);
          rows.verdict.push(VERDICTS.indexOf(verdict));
          rows.error.push(error);
          rows.flags.push(flags);
          if (k > 1) repeatOfRow.push(repeat);
        }
      });
    }
  };
  // The summary as `assay show` reads it, a page at a time, the index made from the same pages.
  const stored = await summarizeRun(store, run, task, indexPage);
  const { state, lease } = await readRunState(store, run);
  const summary: RunSummary = { ...stored, status: state };
  const indexRows = k > 1 ? { ...rows, repeat: repeatOfRow } : rows;

  // The details: the chosen rows, their samples, results and every stored call read for them alone.
  const focus = options.focus;
  const focused = (row: number): boolean => focus !== undefined && focus.has(ids[rows.sample[row] as number] as string);
  const chosen = wantOutputs ? chooseDetails(policy, rows.verdict, rows.flags, focused) : new Set<number>();
  const details: Record<string, SampleDetail> = {};
  if (chosen.size > 0) {
    const sampleIds = [...new Set([...chosen].map((row) => ids[rows.sample[row] as number] as string))];
    const samples = new Map((await store.samplesOf(run.id, sampleIds)).map((sample) => [sample.id, sample]));
    const results = new Map<string, ResultRecord>();
    for (const result of await store.resultsOf(run.id, sampleIds)) results.set(`${result.modelId}\u0000${resultKey(result.sampleId, result.repeat)}`, result);
    const calls = options.calls === false ? [] : await store.callsOf(run.id, sampleIds);
    const callsBySample = new Map<string, typeof calls>();
    for (const call of calls) {
      const list = callsBySample.get(call.sampleId);
      if (list) list.push(call);
      else callsBySample.set(call.sampleId, [call]);
    }
    for (const row of [...chosen].sort((a, b) => a - b)) {
      const sample = samples.get(ids[rows.sample[row] as number] as string);
      const model = run.models[rows.model[row] as number];
      if (!sample || model === undefined) continue;
      const repeat = k > 1 ? (repeatOfRow[row] as number) : 0;
      const review = repeat === 0 ? reviewOf.get(`${model}\u0000${sample.id}`) : undefined;
      details[String(row)] = sampleDetail(sample, model, results.get(`${model}\u0000${resultKey(sample.id, repeat)}`), review, callsBySample.get(sample.id) ?? [], reading, task, k > 1 ? repeat : undefined);
      rows.flags[row] = (rows.flags[row] as number) | ROW_FLAGS.detailed;
    }
  }

  const modelMetrics = (pick: (m: ModelSummary) => Metrics | undefined): (readonly [string, Metrics])[] => modelMetricsOf(run.models, summary, pick);
  const reviewed = modelMetrics((m) => m.reviewed?.metrics);
  const steps = judge ? await store.stepCounts(run.id, 'judge') : [];
  const declarations = runMetricDeclarations(task);
  return {
    schema: RUN_REPORT_SCHEMA,
    overview: overviewOf(run, task.description, state, renderLeaseNote(run.id, state, lease), lease, ids.length, reviews.length),
    summary,
    tables: { metrics: metricTable(modelMetrics((m) => m.metrics), declarations), ...(reviewed.length > 0 ? { reviewed: metricTable(reviewed, declarations) } : {}) },
    metricDeclarations: declaredIn(declarations, modelMetrics((m) => m.metrics)),
    charts: resolveCharts(task.charts ?? [], modelMetrics((m) => m.metrics)),
    judgeHealth: judge
      ? run.models.flatMap((m) => {
          const model = summary.models[m];
          return model ? [judgeHealth(judge, m, model, judged.get(m) ?? [], reviews, reasksOf(steps, m), reading)] : [];
        })
      : [],
    index: { ids, models: run.models, verdicts: VERDICTS, errorKinds, rows: indexRows, values },
    details,
    detailsPolicy: { ...policy, included: Object.keys(details).length, rows: rows.sample.length, ...(options.calls === false ? { callsOmitted: true as const } : {}) },
  };
}

/** The declarations of the metrics some model has, in the task's order. */
function declaredIn(declarations: readonly MetricDeclaration[] | undefined, models: readonly (readonly [string, Metrics])[]): MetricDeclaration[] {
  const names = new Set(models.flatMap(([, metrics]) => Object.keys(metrics).map((key) => declarationOf(declarations, key)?.name)));
  return (declarations ?? []).filter((d) => names.has(d.name));
}

function applicationTargetNoteOf(run: RunRecord): { applicationTargetNote?: string } {
  const note = applicationTargetNote(run);
  return note !== undefined ? { applicationTargetNote: note } : {};
}

function overviewOf(run: RunRecord, description: string, status: RunState, statusNote: string | undefined, lease: StoredLease | undefined, stored: number, reviews: number): RunOverview {
  return {
    run: run.id,
    task: run.task,
    taskVersion: run.taskVersion,
    taskDescription: description,
    status,
    ...(statusNote ? { statusNote } : {}),
    ...(lease ? { lease } : {}),
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    durationMs: Math.max(0, Date.parse(run.updatedAt) - Date.parse(run.createdAt)),
    models: run.models,
    judge: run.judge,
    userModel: run.userModel ?? null,
    settings: run.settings,
    seed: run.seed,
    options: run.options,
    datasetChecksums: run.provenance.datasetChecksums,
    modifiedData: recordedModifiedData(run),
    ...applicationTargetNoteOf(run),
    promptVersion: run.provenance.promptVersion,
    toolkitVersion: run.provenance.toolkitVersion,
    engine: engineView(run),
    samples: { total: Math.max(run.sampleCount ?? 0, stored), stored },
    reviews,
  };
}

/** Several runs, one report (each run built as {@link buildRunReport}); a run named twice is refused. */
export async function buildReportBundle(store: Store, runIds: readonly string[], options: RunReportOptions = {}): Promise<ReportBundle> {
  if (runIds.length === 0) throw new InputError('give at least one run');
  const runs: RunReport[] = [];
  for (const id of runIds) {
    const report = await buildRunReport(store, id, options);
    if (runs.some((r) => r.overview.run === report.overview.run)) throw new InputError(`run ${report.overview.run} is named twice`);
    runs.push(report);
  }
  return { schema: RUN_REPORT_SCHEMA, generatedAt: new Date().toISOString(), toolkitVersion, runs };
}
