import type { GenerateResult, GenerateSettings, JudgeRunSettings, JudgeSettings, ReferenceAnswerers, RoleGenerate, Sample, SampleFacts, SampleList, Score, Transcript } from '../core/index.js';

// The options a run records with its task live in core: the store keeps them with the run.
export type { AnswerParserName, TaskOptions } from '../core/task-options.js';
import type { AnswerParserName, TaskOptions } from '../core/task-options.js';
import type { MetricValue, Metrics } from './metric-value.js';
import type { ExportLayout } from './export-layout.js';
export type { MetricValue, Metrics } from './metric-value.js';

/** Texts → vectors (an embedding model), for tasks that rank by similarity. */
export interface TextEmbedder {
  readonly id: string;
  /** One vector per text, in order. */
  embed(texts: readonly string[]): Promise<number[][]>;
  close(): Promise<void>;
}

export interface TaskContext {
  readonly dataDir: string;
  readonly seed: number;
  readonly options: TaskOptions;
  /**
   * Builds an embedding model from its id. The runner passes the model layer's factory (tasks
   * do not import models); a task that needs an embedder and gets none refuses with an InputError.
   */
  readonly createEmbedder?: (id: string) => Promise<TextEmbedder>;
  /**
   * The run's stop (the first SIGINT/SIGTERM): a preparation that can take long (rendering a
   * harm resource's templates) ends with the signal's reason rather than running on.
   */
  readonly signal?: AbortSignal;
}

/**
 * What a metric's number is: a fraction (shown as a percentage), a count, a mean, a level of a
 * scale, or a coefficient on a scale of its own (a kappa, −1…1). Counts are shown as integers,
 * shares as percentages, the rest as numbers.
 */
export type MetricUnit = 'share' | 'count' | 'mean' | 'level' | 'coefficient';
/** Which way is better for a metric; `none` for a count or a figure that is neither good nor bad. */
export type MetricDirection = 'higher' | 'lower' | 'none';
/**
 * How the 95% interval the task returns beside a metric (`<name>_ci95`, `{low, high}`) is made:
 * a Wilson score interval of the share's counts (`metrics/intervals.ts` `wilsonInterval`), a
 * seeded bootstrap over the items (percentile, `bootstrapInterval`; for kappa the expanded BCa of
 * `metrics/agreement.ts` `kappaInterval`), or none (no interval is returned).
 */
export type MetricInterval = 'wilson' | 'bootstrap' | 'none';

/**
 * One metric a task's {@link Task.metrics} returns, declared by the task: what a reader (the
 * console, `assay show --json` and `--explain`, the report's tables) is told it is, and how its
 * numbers are shown — nothing reads a unit from a key's name. `name` is a key of the metrics
 * object; its `<name>_ci95` interval goes with it (see `interval`).
 *
 * A metric whose value is an object is declared once by its key:
 * - categories of numbers all in the metric's unit (`csr_by_position: {"1": 0.8}`, a confusion
 *   matrix's counts, an error taxonomy): no `parts`;
 * - named figures of different units (`leak_truth: {n, exact, kappa}`), or categories each an
 *   object of such figures (`by_template: {direct: {rate, ci95, defects, judged}}`): each figure
 *   declared in `parts` by its key (a part's `_ci95`, or a bare `ci95` beside the one part with an
 *   interval, goes with that part). The metric's own unit is then its headline figure's.
 */
export interface MetricDeclaration {
  readonly name: string;
  /** One line, for someone who has not read the paper: what is counted, over what. */
  readonly meaning: string;
  readonly unit: MetricUnit;
  readonly direction: MetricDirection;
  /** How its `<name>_ci95` is made; `none` when the task returns no interval for it. */
  readonly interval: MetricInterval;
  /**
   * The answer readings (`--parser`) under which the task returns this metric (MetaTool's
   * `manual` and `decided`: `['paper']`). Absent: under every reading the task offers (or its
   * only one). Human-reviewed metrics (`assay review`) have the same keys as the judge-only ones.
   * A task that tells the reading from its stored scores (MetaTool, so a rescored run reads right)
   * returns its default reading's metrics when no sample has a score.
   */
  readonly readings?: readonly AnswerParserName[];
  /** The figures of a metric whose value is an object of differently-measured numbers (see above). */
  readonly parts?: readonly MetricDeclaration[];
}

/** What the metrics see for one sample: its facts (id, target, metadata: not its input) and its score, or nothing if the model call failed. */
export interface ScoredSample {
  readonly sample: SampleFacts;
  /** `undefined` when the sample ended in error (no output to score). */
  readonly score: Score | undefined;
  /**
   * A human reviewer's verdict on this sample (`assay review`), only in the reviewed metrics:
   * pass or fail in the sense of the task's {@link Task.reviewReading}. The score's value holds
   * it too (metrics that read a boolean value need nothing more); metrics that read the judge's
   * grading from the score's answer (a 1–5 grade, claims, a severity) must take the pass or fail
   * from here (`judgedRows` does).
   */
  readonly review?: boolean;
}

export interface PreparedTask {
  /** In the run's order: an array, or built on demand for a task with very many (`buildSamples`). */
  readonly samples: SampleList;
  /**
   * What the user should know about the data that does not stop the run (articles read as
   * Latin-1): one line each, said once when a run or a resume prepares the task (`onWarning`).
   */
  readonly warnings?: readonly string[];
  /** sha256 of every data file the samples were built from, keyed by path relative to the data dir. */
  readonly datasetChecksums: Readonly<Record<string, string>>;
  /** Identifies the prompt templates used; bump when a template changes. */
  readonly promptVersion: string;
  /**
   * Pure and deterministic: parses the output and scores it against the sample's target. A task
   * with a solver also gets the sample's transcript (every call its solver made, in order).
   */
  score(sample: Sample, output: GenerateResult, transcript?: Transcript): Score;
  /**
   * How a sample is answered when it takes more than one call of the model under test (a
   * conversation with a simulated user). Absent: the default solver, one call of the model under
   * test with the sample's prompt.
   */
  readonly solver?: Solver;
  /**
   * Model-graded scoring: grades the output through `judge`, which makes calls in the judge role
   * only (through the run's judge model and its middleware — cache, retries, limits, cost, the
   * run's budget; every call is stored with the sample as it is made, labelled by its step).
   * Returns the score — its value `null` with the reason for a no verdict — or an error when a
   * judge call failed outright (the sample then ends in error, retryable with `--retry-errors`).
   * A score the scorer gives without calling the judge (FunctionChat's exact match) stands as it
   * is; when it called the judge, the engine adds the judge's model, calls, tokens and cost to
   * `metadata.judge` (around whatever audit trail the scorer put there: a rubric judgment's votes).
   * `assay rescore` calls it again with a judge answered from the call cache alone. Without a
   * judge it is never called: the run requires one, or (with {@link judgeOptional}) `score` stands.
   */
  gradeWithJudge?(sample: Sample, output: GenerateResult, judge: RoleGenerate, settings: JudgeRunSettings, transcript?: Transcript): Promise<JudgeGraded>;
  /**
   * Whether the task may also run without a judge (`--exact-only`): then `score` alone is the
   * verdict, so it must already say what it means without one (FunctionChat: a call that is not
   * an exact match fails; a text answer only a judge can grade is no verdict). Absent: a task
   * with `gradeWithJudge` requires `--judge`.
   */
  readonly judgeOptional?: boolean;
  /**
   * How many judge calls grading one output of `sample` makes at most, for `--estimate` (every
   * re-ask included), given the run's judge settings; null when it cannot be bounded ahead (one
   * call per claim of a summary not yet written). Per sample, so a task whose samples need
   * different judging (a case with two rubrics, one with none) is counted as it will be called.
   * Absent: as one rubric judgment, `repeats × (1 + re-asks)`.
   */
  judgeCallsPerSample?(settings: Pick<JudgeSettings, 'repeats' | 'maxParseRetries'>, sample: Sample): number | null;
  /**
   * For a task whose judged values are levels of an ordinal scale (harm severity, groundedness 1–5): the
   * scale's lowest and highest level, so `assay agreement` can compare them with human labels.
   */
  readonly severityScale?: { readonly min: number; readonly max: number };
  /**
   * With {@link severityScale}: whether a level is a defect (harm: the guideline's rule;
   * groundedness: below `--threshold`), so `assay agreement --labels` can correct the defect rate
   * for the judge's measured error.
   */
  readonly isDefectLevel?: (level: number) => boolean;
  /**
   * What the task's metrics need besides the stored samples, their scores and the run's options
   * (harm measurement: the guideline, whether the resource has a leak check, its human labels):
   * plain JSON, stored with the run, so a run is reported from the store alone — on another
   * machine, with no data dir. Absent: the metrics need nothing more.
   */
  readonly metricsFacts?: unknown;
}

/**
 * Other readings of a judged task's stored judgments, side by side with assay's (`assay show
 * --readings`): the same judge answers counted the way a source counts them (the seed, DeepEval,
 * Azure AI Evaluation). Pure and static: read from the store alone, no model called, nothing stored.
 */
export interface JudgedReadings {
  /** The readings' names, assay's default first. */
  readonly names: readonly string[];
  /** What each reading counts and where it comes from (file and function), one line each. */
  readonly notes: readonly string[];
  /** The figures its readings return that the task's own declarations do not name (how each is shown). */
  readonly declarations: readonly MetricDeclaration[];
  /**
   * Each reading's metrics over one model's rows (reviews not applied: the judge's own answers),
   * and how many rows with a score get another pass or fail under another reading.
   */
  read(rows: readonly ScoredSample[], context: MetricsContext): { readonly metrics: Readonly<Record<string, Metrics>>; readonly differing: number };
}

/** A task's metrics computed one row at a time ({@link Task.metricsFold}): every row `add`ed in run order, then `finish` once. */
export interface MetricsFold {
  add(row: ScoredSample): void;
  finish(): Metrics;
}

/** What a task's metrics read besides the samples and their scores. */
export interface MetricsContext {
  /** The run's task options (a threshold, the answer reading). */
  readonly options: TaskOptions;
  /** The task's {@link PreparedTask.metricsFacts}, as stored with the run; undefined when it stores none. */
  readonly facts: unknown;
}

/**
 * A task's own way of answering a sample in several calls. `solve` makes its calls through
 * `generate` in the roles `test` (the model under test the sample is being run for) and `user`
 * (the run's simulated user, `--user-model`); the judge role belongs to scorers. The engine sends
 * each call through that model's middleware (cache, retries, limits, cost), charges the run's
 * budget, stores each call as it is made (a kill -9 loses no paid call: a resume replays the
 * sample and the cache answers what was paid for, so `solve` must make the same requests again
 * given the same answers) and keeps the transcript with the result.
 */
export interface Solver {
  /** The output scorers read (the model under test's last answer), or the error that ended the sample. */
  solve(sample: Sample, generate: RoleGenerate, settings: GenerateSettings): Promise<Solved>;
  /** Whether `solve` calls a simulated user: the run then needs `--user-model`, and refuses it otherwise. */
  readonly simulatedUser: boolean;
  /** At most how many calls one sample makes in each role (every turn of a conversation), for `--estimate`. */
  readonly maxCalls: { readonly test: number; readonly user: number };
}

/** What {@link Solver.solve} gives: the output to score, or the error that ended the sample (retryable). */
export type Solved = { readonly output: GenerateResult } | { readonly error: { readonly kind: string; readonly message: string } };

/** What {@link PreparedTask.gradeWithJudge} gives: the judged score, or the error of a judge call that failed. */
export type JudgeGraded = { readonly score: Score } | { readonly error: { readonly kind: string; readonly message: string } };

/**
 * A command-line option a task declares for itself (`--articles <path>`): the CLI offers it on
 * `run` and `samples` (a suite entry's `options:` take it too) and passes its value in
 * `TaskOptions.task[key]`, or at the top level of the options for a {@link TaskOptionSpec.topLevel}
 * one; the task validates it. The registry knows every built-in task's declarations without loading
 * the task (`TASK_OPTION_FACTS`), so each task keeps them in a small module of its own.
 */
export interface TaskOptionSpec {
  /** The key in `TaskOptions.task` (or the options' own, `topLevel`), camelCase (`textColumn`); the flag is its kebab-case (`--text-column`). */
  readonly key: string;
  /** The value's name in help (`<path>`). */
  readonly value: string;
  readonly description: string;
  /**
   * `count`: a plain decimal integer ≥ 0 (with `choices`: one of them, recorded as a number);
   * `positive`: a plain decimal integer ≥ 1; `path`: a file or folder, made absolute (a resume from
   * elsewhere reads the same); `model`: a provider:model id, checked as `--model`'s are (the
   * option's default word aside); `text` (default): any string.
   */
  readonly kind?: 'text' | 'count' | 'positive' | 'path' | 'model';
  /** Allowed values, when only a few are. */
  readonly choices?: readonly string[];
  /** Recorded when not given (shown in help). */
  readonly default?: string | number;
  /** Given only with another of the task's options (else refused with `message`), and recorded with it as `default` when not given. */
  readonly needs?: { readonly key: string; readonly message: string; readonly default?: string };
  /** Given, the task reads the user's own file instead of its data set: nothing is downloaded for the run. */
  readonly replacesDataset?: true;
  /**
   * MetaTool's and FunctionChat's options, which runs recorded at the top level of their options
   * (`perTool`, not `task.perTool`) before tasks declared theirs: recorded there still, in the same
   * order, and listed where they were in help, so every stored run reads, shows and is found by
   * `run --resume` (which compares recorded options as JSON) as before. New options leave it out.
   */
  readonly topLevel?: {
    /** The option (key) it is listed after in help: `sample` → after `--sample`. */
    readonly helpAfter: string;
    /** The key it is recorded after (`sample`, or another top-level one); absent: first. */
    readonly recordedAfter?: string;
    /** Recorded for every task's run, given or by its default, and refused for none (as it was); otherwise only the declaring tasks take it. */
    readonly everyTask?: true;
    /** The line that refuses it for a task that does not declare it, `{takers}` and `{task}` filled in (absent: the usual line). */
    readonly refusal?: string;
  };
}

/**
 * What the `baseline:` models answer in a task (`Task.baselines`): its reference answerers, which
 * the runner hands to the baseline providers of a run of the task, and what they answer in words.
 */
export interface TaskBaselines {
  /** In words, for the refusal of a baseline on a task without any ("MetaTool's questions"). */
  readonly questions: string;
  /** By the hints' kind, then by strategy (`baseline:random` → `random`). */
  readonly answerers: ReferenceAnswerers;
}

/** The formats of `assay export` (`--format`). */
export type ExportFormatName = 'jsonl' | 'csv' | 'tsv';

/** A benchmark task: a name, a version, default settings, and how to build its samples and scorer. */
export interface Task {
  readonly name: string;
  /** Bump when samples, prompts or scoring change in a way that changes the numbers. */
  readonly version: string;
  readonly description: string;
  /** Sampling settings used unless the run overrides them (MetaTool: temperature 0). */
  readonly defaultSettings: GenerateSettings;
  /**
   * Judge repeats used when `assay run` is not given `--judge-repeats` (harm measurement: 5, as
   * its seed repeats annotation 5 or 7 times). Absent: 1. A stored run keeps the repeats it ran with.
   */
  readonly defaultJudgeRepeats?: number;
  /**
   * The answer readings the task's scorer offers, default first (`--parser`; `assay rescore
   * --parser` and `assay show --readings` use them on stored outputs). Absent: one reading.
   */
  readonly answerParsers?: readonly AnswerParserName[];
  /** A judged task's other readings of its stored judgments (`assay show --readings`); absent: none. */
  readonly judgedReadings?: JudgedReadings;
  /**
   * The data-dir folder the task reads (`metatool`, `functionchat`): the CLI makes sure it is
   * there (downloading it when assay can) before the task prepares. Absent for a task that reads
   * only files the user names (summaries' `--articles`).
   */
  readonly dataset?: string;
  /**
   * Columns of the task's own for `assay export`, from a sample and its stored score (judged
   * summaries: the claims, their verdicts and reasons); appended after the common columns.
   */
  exportColumns?(sample: Sample, score: Score | null): Readonly<Record<string, unknown>>;
  /**
   * The sample metadata key that names a sample's category (articles' folders: `category`; harm:
   * the persona `template`): `--sample N` draws from each category in proportion to its size
   * (`stratifiedPositions`). Absent, or a sample without it: a plain seeded sample.
   */
  readonly categoryKey?: string;
  /** Options of this task's own (see {@link TaskOptionSpec}). */
  readonly ownOptions?: readonly TaskOptionSpec[];
  /**
   * How the task's stored scores read when two runs are compared (`assay compare`). Static on
   * purpose: a comparison reads the store only (no data dir, no `prepare`, no model). Absent: the
   * default reading (`DEFAULT_COMPARISON` in `benchmarks/comparison.ts`: a boolean value is a
   * pass or a fail, a number is the value).
   */
  readonly comparison?: ScoreComparison;
  /**
   * A stored score as pass or fail in the sense a human reviewer's verdict has (`assay review`),
   * null for no verdict: a review that differs from it is a change, and the reviewed metrics
   * take the reviewer's verdict in its place. Absent: the comparison's pass reading
   * (`reviewReadingOf` in `benchmarks/review-reading.ts`).
   */
  reviewReading?(score: Score, context: MetricsContext): boolean | null;
  /**
   * What the `baseline:` reference models answer in this task's samples: its samples carry a
   * structured question (`Sample.hints`) a baseline reads instead of the prompt, and the task says
   * how each strategy answers each kind of question. Absent: the task has none, and a run with a
   * baseline is refused before anything is recorded, naming the tasks that have them.
   */
  readonly baselines?: TaskBaselines;
  /**
   * Whether a score is a no verdict the task's reading left to **manual analysis** (MetaTool's
   * `--parser paper`: the paper's rules decide nothing): counted apart as `manual` in the summary,
   * shown as `manual` in the report and exports, never as a pass or a fail. Absent: none is.
   */
  isManualAnalysis?(score: Score): boolean;
  /**
   * `assay export` formats the task writes in a layout of its own instead of assay's rows, by
   * `--format` (FunctionChat: `tsv` in upstream's report columns): the task's columns and cells,
   * which `report/` writes in that format. Absent: assay's rows in every format.
   */
  readonly exportFormats?: Readonly<Partial<Record<ExportFormatName, ExportLayout>>>;
  /**
   * The charts a report draws from this task's metrics (`assay report`), declared here so that
   * report code never asks which task a run is. Static: a report reads the store only. Each is
   * resolved against every model's metrics into categories × one series per model; a chart whose
   * metric no model has is left out. Absent: the report shows the metrics tables only.
   */
  readonly charts?: readonly ChartSpec[];
  prepare(ctx: TaskContext): Promise<PreparedTask>;
  /**
   * Aggregates scores into the task's metrics, from what the store holds (the samples, their
   * scores, the run's options and the facts its preparation stored), never from the data set:
   * a stored run is summarized without preparing the task again. Samples without a score
   * (errors) are passed with `score: undefined`; metrics that count errors apart see them.
   */
  metrics(rows: Iterable<ScoredSample>, context: MetricsContext): Metrics;
  /**
   * The same metrics folded a row at a time, for a task whose metrics only count: fed the rows
   * {@link metrics} would get, in the same order, {@link MetricsFold.finish} returns what it
   * returns (key order included; `foldRows` in `benchmarks/metrics-fold.ts` makes `metrics` from
   * it, so there is one way to count). The summary then holds a few counters per model instead
   * of every sample's row, whatever the run's size. Absent: the summary keeps the rows for
   * `metrics` (metrics that need all of them: a bootstrap interval, a kappa, a median).
   */
  metricsFold?(context: MetricsContext): MetricsFold;
  /**
   * Lines a reader of `assay show` needs besides the metrics, from the same rows (the cases task:
   * each case that did not pass, with the expectations that did not and why). Plain text, one
   * line each (stored text in them is shown with its control characters made visible). Absent or
   * empty: the summary has no notes (`ModelSummary.notes` is left out).
   */
  summaryNotes?(rows: readonly ScoredSample[], context: MetricsContext): readonly string[];
  /**
   * Every metric {@link metrics} may return, with its meaning, unit and direction (each built-in
   * task declares them all; a test holds every registered task to it). Absent for a task of a
   * library user's that declares none: its metrics are then shown without a meaning.
   */
  readonly metricDeclarations?: readonly MetricDeclaration[];
}

/** One stored score as `assay compare` reads it. */
export interface ComparableScore {
  /** true pass, false fail, null no verdict; absent when the task has no pass/fail reading of the score. */
  readonly pass?: boolean | null;
  /** The score's number (a severity); null no verdict; absent when the task has no number. */
  readonly value?: number | null;
}

/** A task's reading of its scores for comparisons, and what each reading means in words. */
export interface ScoreComparison {
  /** What a pass is, for the output ("no defect"); default "pass". */
  readonly passMeans?: string;
  /** What the number is ("severity (higher is worse)"); default "score". */
  readonly valueMeans?: string;
  /** Pure: the stored score → its pass/fail and/or number. Never called for an error (there is no score). */
  read(score: Score): ComparableScore;
}

/**
 * One chart of a task's metrics, generic over breakdowns: `metric` names a key of a model's
 * metrics whose value is an object of categories (`csr_by_position: {"1": 0.8, "2": 0.7}`), or of
 * category objects (`by_tools_type: {exact: {pass_rate, pass, n}}`) read through `value`.
 */
export interface ChartSpec {
  /** Stable id (the report's element id and the tests' handle), unique within the task. */
  readonly id: string;
  readonly title: string;
  /** What a reader should know to read it (denominators, what is left out). */
  readonly description?: string;
  /** The breakdown's key in the metrics (a dotted path reaches a nested one: `leak_truth`). */
  readonly metric: string;
  /** The key of each category's number when categories are objects (`pass_rate`, `rate`); absent when categories are numbers. */
  readonly value?: string;
  /**
   * Each category's 95% interval: the key of a `{low, high}` beside the value (`ci95`,
   * `alignment_ci95`), or the keys of its successes and size for a Wilson interval computed by
   * the report (`{successes: 'pass', n: 'n'}`). Absent: no interval.
   */
  readonly interval?: string | { readonly successes: string; readonly n: string };
  /** `share`: a fraction shown as a percentage on a 0–100% axis; `count`; `number` (a mean, a score). */
  readonly unit: 'share' | 'count' | 'number';
  /** The categories to draw, in order (default: the breakdown's own keys, in its order). */
  readonly categories?: readonly string[];
  /**
   * A breakdown keyed by the levels of a scale (a score distribution): every whole level from
   * `min` to `max` is a category even when no model has it (a level nobody got counts 0), with
   * any other key the breakdown has (a half level: the median of an even number of repeats), all
   * in numeric order. Instead of `categories`.
   */
  readonly scale?: { readonly min: number; readonly max: number };
  /** How to name the categories in the chart (`{tp: 'true positive'}`); default the key itself. */
  readonly labels?: Readonly<Record<string, string>>;
  /**
   * Drawn as a matrix instead of bars (a confusion matrix): `cells[i][j]` is the category shown in
   * row `rows[i]`, column `columns[j]`; one matrix per model.
   */
  readonly matrix?: { readonly rows: readonly string[]; readonly columns: readonly string[]; readonly cells: readonly (readonly string[])[] };
}
