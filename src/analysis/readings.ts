import type { AnswerParserName, JudgedReadings, Metrics, MetricsContext, MetricsFold, ScoredSample, Task } from '../benchmarks/task.js';
import { sampleFacts, type Score } from '../core/index.js';
import type { RunRecord } from '../store/records.js';
import { findTask } from '../benchmarks/registry.js';
import type { Store } from '../store/store.js';
import { scoreSafely } from '../benchmarks/score-safely.js';
import { answerParsersOf } from './rescore.js';
import { prepareForRun, reopenedPages } from './reopen.js';
import { resultKey, storedPages, summaryPageSamples } from './summary.js';
import { requireRun } from '../store/require-run.js';

/** One model's metrics under every reading of its task, from the same stored outputs. */
export interface ModelReadings {
  /** Metrics by parser, in the task's order of parsers. */
  readonly metrics: Readonly<Record<string, Metrics>>;
  /** Outputs read (results that ended in error have none). */
  readonly outputs: number;
  /** Outputs whose verdict (pass, fail, no verdict / manual) differs between the readings. */
  readonly differing: number;
}

export interface RunReadings {
  readonly run: string;
  readonly task: string;
  /** The readings, default first: MetaTool's answer parsers, or a judged task's readings of its stored judgments. */
  readonly parsers: readonly (AnswerParserName | string)[];
  readonly models: Readonly<Record<string, ModelReadings>>;
  /** A judged task's readings: what each counts and its source (file and function), one line each. */
  readonly notes?: readonly string[];
}

const verdict = (score: Score | undefined): string => (score === undefined ? 'error' : String(score.value));

/**
 * Reads every stored output of a run with each answer parser its task offers and computes the
 * metrics under each, side by side (`assay show --readings`). No model is called and nothing is
 * stored: the run's own scores are left as they are. As the summary's metrics, each reading reads
 * every model's first answer to each sample (repeat 0 of a run with --repeats). The run is read a
 * page at a time (`reopenedPages`); a task whose metrics fold (`Task.metricsFold`) keeps nothing
 * of a page, any other task each read answer's sample facts and score.
 */
export async function readRunBothWays(store: Store, runIdOrPrefix: string, dataDir?: string): Promise<RunReadings> {
  const run = await requireRun(store, runIdOrPrefix);
  const task = findTask(run.task);
  if (task.judgedReadings && !task.answerParsers) return readJudgedRun(store, run, task.judgedReadings);
  const parsers = answerParsersOf(run, '--readings');
  const readers = await Promise.all(
    parsers.map(async (parser) => {
      const context: MetricsContext = { options: { ...run.options, parser }, facts: run.metricsFacts };
      const { prepared } = await prepareForRun(run, dataDir, context.options);
      return { prepared, tallies: new Map(run.models.map((modelId) => [modelId, new ReadingTally(task, context)])) };
    }),
  );
  const outputs = new Map(run.models.map((modelId) => [modelId, { read: 0, differing: 0 }]));
  const first = readers[0];
  if (first) {
    for await (const page of reopenedPages(store, run, first.prepared)) {
      const byId = new Map(page.samples.map((s) => [s.id, s]));
      for (const result of page.results) {
        const sample = byId.get(result.sampleId);
        const count = outputs.get(result.modelId);
        if ((result.repeat ?? 0) !== 0 || result.status !== 'done' || !result.output || !sample || !count) continue;
        count.read++;
        const facts = sampleFacts(sample);
        const scores = readers.map(({ prepared, tallies }) => {
          const score = scoreSafely(prepared, sample, result.output!);
          tallies.get(result.modelId)?.add({ sample: facts, score });
          return score;
        });
        if (new Set(scores.map(verdict)).size > 1) count.differing++;
      }
    }
  }
  const models: Record<string, ModelReadings> = {};
  for (const modelId of run.models) {
    const metrics: Record<string, Metrics> = {};
    parsers.forEach((parser, i) => {
      metrics[parser] = readers[i]?.tallies.get(modelId)?.metrics() ?? {};
    });
    const { read, differing } = outputs.get(modelId) ?? { read: 0, differing: 0 };
    models[modelId] = { metrics, outputs: read, differing };
  }
  return { run: run.id, task: run.task, parsers, models };
}

/** One reading's metrics of one model: its task's fold, or its metrics over the rows kept. */
class ReadingTally {
  private readonly fold: MetricsFold | undefined;
  private readonly rows: ScoredSample[] = [];

  constructor(
    private readonly task: Task,
    private readonly context: MetricsContext,
  ) {
    this.fold = task.metricsFold?.(context);
  }

  add(row: ScoredSample): void {
    if (this.fold) this.fold.add(row);
    else this.rows.push(row);
  }

  metrics(): Metrics {
    return this.fold ? this.fold.finish() : this.task.metrics(this.rows, this.context);
  }
}

/**
 * A judged run's stored judgments read each way its task offers (`Task.judgedReadings`): from the
 * store alone (no data dir, no model, nothing stored), reviews not applied. Read a page at a time
 * as the summary reads the run (`storedPages`), each model's first answer to each sample (repeat 0).
 */
async function readJudgedRun(store: Store, run: RunRecord, readings: JudgedReadings): Promise<RunReadings> {
  const context: MetricsContext = { options: run.options, facts: run.metricsFacts };
  const rowsOf = new Map(run.models.map((modelId) => [modelId, { rows: [] as ScoredSample[], outputs: 0 }]));
  for await (const page of storedPages(store, run.id, summaryPageSamples(run.models.length, run.repeats ?? 1))) {
    for (const stored of page.samples) {
      const sample = sampleFacts(stored);
      for (const [modelId, model] of rowsOf) {
        const result = page.results.get(modelId)?.get(resultKey(stored.id, 0));
        if (result?.status === 'done' && result.score) {
          model.outputs++;
          model.rows.push({ sample, score: result.score });
        } else if (result?.status === 'error') model.rows.push({ sample, score: undefined });
      }
    }
  }
  const models: Record<string, ModelReadings> = {};
  for (const [modelId, { rows, outputs }] of rowsOf) {
    const { metrics, differing } = readings.read(rows, context);
    models[modelId] = { metrics, outputs, differing };
  }
  return { run: run.id, task: run.task, parsers: readings.names, models, notes: readings.notes };
}
