import type { AnswerParserName, JudgedReadings, Metrics, MetricsContext, ScoredSample } from '../benchmarks/task.js';
import { sampleFacts, type Score } from '../core/index.js';
import type { RunRecord } from '../store/records.js';
import { findTask } from '../benchmarks/registry.js';
import type { Store } from '../store/store.js';
import { scoreSafely } from '../benchmarks/score-safely.js';
import { answerParsersOf } from './rescore.js';
import { reopen } from './reopen.js';
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
 * stored: the run's own scores are left as they are.
 */
export async function readRunBothWays(store: Store, runIdOrPrefix: string, dataDir?: string): Promise<RunReadings> {
  const run = await requireRun(store, runIdOrPrefix);
  const judged = findTask(run.task).judgedReadings;
  if (judged && !findTask(run.task).answerParsers) return readJudgedRun(store, run, judged);
  const parsers = answerParsersOf(run, '--readings');
  const task = findTask(run.task);
  const reopened = await Promise.all(parsers.map((parser) => reopen(store, run, dataDir, { ...run.options, parser })));
  const samples = reopened[0]?.samples ?? [];
  const models: Record<string, ModelReadings> = {};
  for (const modelId of run.models) {
    const results = new Map((await store.results(run.id, modelId)).map((r) => [r.sampleId, r]));
    const rowsByParser = parsers.map(() => [] as ScoredSample[]);
    let outputs = 0;
    let differing = 0;
    for (const sample of samples) {
      const result = results.get(sample.id);
      if (result?.status !== 'done' || !result.output) continue;
      outputs++;
      const scores = reopened.map(({ prepared }) => scoreSafely(prepared, sample, result.output!));
      scores.forEach((score, i) => rowsByParser[i]?.push({ sample, score }));
      if (new Set(scores.map(verdict)).size > 1) differing++;
    }
    const metrics: Record<string, Metrics> = {};
    parsers.forEach((parser, i) => {
      metrics[parser] = task.metrics(rowsByParser[i] ?? [], { options: { ...run.options, parser }, facts: run.metricsFacts });
    });
    models[modelId] = { metrics, outputs, differing };
  }
  return { run: run.id, task: run.task, parsers, models };
}

/**
 * A judged run's stored judgments read each way its task offers (`Task.judgedReadings`): from the
 * store alone (no data dir, no model, nothing stored), reviews not applied.
 */
async function readJudgedRun(store: Store, run: RunRecord, readings: JudgedReadings): Promise<RunReadings> {
  const samples = new Map((await store.sampleFacts(run.id)).map((s) => [s.id, sampleFacts(s)]));
  const context: MetricsContext = { options: run.options, facts: run.metricsFacts };
  const models: Record<string, ModelReadings> = {};
  for (const modelId of run.models) {
    const rows: ScoredSample[] = [];
    let outputs = 0;
    for (const result of await store.results(run.id, modelId, { outputs: false })) {
      const sample = samples.get(result.sampleId);
      if (!sample) continue;
      if (result.status === 'done' && result.score) {
        outputs++;
        rows.push({ sample, score: result.score });
      } else if (result.status === 'error') rows.push({ sample, score: undefined });
    }
    const { metrics, differing } = readings.read(rows, context);
    models[modelId] = { metrics, outputs, differing };
  }
  return { run: run.id, task: run.task, parsers: readings.names, models, notes: readings.notes };
}
