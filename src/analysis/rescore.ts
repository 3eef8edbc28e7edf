import { withFields, InputError, canonicalJson, judgeSettingsOf, type RoleGenerate, type Score } from '../core/index.js';
import { callCacheKey } from '../models/middleware/model.js';
import { allTasks, findTask } from '../benchmarks/registry.js';
import type { AnswerParserName, TaskOptions } from '../benchmarks/task.js';
import type { RunRecord } from '../store/records.js';
import type { PreparedTask } from '../benchmarks/task.js';
import type { GenerateResult, Sample, Transcript } from '../core/index.js';
import { scoreSafely } from '../benchmarks/score-safely.js';
import { judgeMetadataOf, withJudgeTotals } from '../judges/judge-metadata.js';
import { prepareForRun, reopenedPages } from './reopen.js';
import { requireRun } from '../store/require-run.js';
import { summarizeRun, type RunSummary } from './summary.js';
import type { Store } from '../store/store.js';

/** The answer parsers a run's task offers; refuses, naming the option given (`--parser`, `--readings`), a task that has only one reading. */
export function answerParsersOf(run: RunRecord, option: string): readonly AnswerParserName[] {
  const parsers = findTask(run.task).answerParsers ?? [];
  if (parsers.length === 0) {
    const offering = allTasks.filter((t) => (t.answerParsers ?? []).length > 0).map((t) => t.name);
    throw new InputError(`${option} only applies to ${offering.join(', ')}; run ${run.id} is ${run.task}`);
  }
  return parsers;
}

export interface RescoreOptions {
  /** Answer parser to score with instead of the run's (tasks that declare `answerParsers`). */
  readonly parser?: AnswerParserName;
  /** Data dir to rebuild the scorer from, if not the one the run recorded. */
  readonly dataDir?: string;
}

export interface RescoreOutcome {
  readonly summary: RunSummary;
  /** Stored outputs re-parsed and re-scored (results that ended in error have none). */
  readonly rescored: number;
  /** Of those, how many got another verdict or parsed answer than the stored score had. */
  readonly changed: number;
  /**
   * Outputs of a model-graded task whose judgment could not be made again from the call cache
   * alone (a judge prompt that changed, or a judge answer never cached): they keep their stored score.
   */
  readonly keptJudged: number;
  /** The task options the run was recorded with. */
  readonly storedOptions: TaskOptions;
  /** The task options the new scores were computed with. */
  readonly scoredWith: TaskOptions;
}

/** What a re-score can change that matters: the verdict and the parsed answer (not the metadata naming the parser). */
const verdictOf = (score: Score): string => canonicalJson({ value: score.value, answer: score.answer ?? null });

/**
 * Re-parses and re-scores every stored output of a run with the current scorer (optionally with
 * another awareness parser), stores the new scores and returns the new summary. No model is
 * called. The run record is left as it was: `storedOptions` and `scoredWith` say what differs.
 *
 * The run is read a page of samples and their results at a time (`reopenedPages`); what is kept
 * to the end is the scores that differ from the stored ones, written then in one transaction per
 * model and repeat, so a re-score is still applied completely or not at all. A score that did
 * not change is not written again: it is stored as it would be written.
 */
export async function rescoreRun(store: Store, runIdOrPrefix: string, options: RescoreOptions = {}): Promise<RescoreOutcome> {
  const run = await requireRun(store, runIdOrPrefix);
  if (options.parser !== undefined) answerParsersOf(run, '--parser');
  const scoredWith: TaskOptions = options.parser === undefined ? run.options : { ...run.options, parser: options.parser };
  const { task, prepared } = await prepareForRun(run, options.dataDir, scoredWith);
  let rescored = 0;
  let changed = 0;
  let keptJudged = 0;
  // Per model, then repeat (a run with --repeats has k results per sample): the new scores that differ from the stored ones.
  const updates = new Map(run.models.map((modelId) => [modelId, new Map<number, Map<string, Score>>()]));
  for await (const page of reopenedPages(store, run, prepared)) {
    const byId = new Map(page.samples.map((s) => [s.id, s]));
    for (const result of page.results) {
      const sample = byId.get(result.sampleId);
      const byRepeat = updates.get(result.modelId);
      if (result.status !== 'done' || !result.output || !sample || !byRepeat) continue;
      let score: Score;
      if (prepared.gradeWithJudge && run.judge) {
        // A model-graded scorer runs again, its judge calls answered from the cache alone.
        const regraded = await regradeFromCache(store, run, prepared, sample, result.output, result.score, result.transcript);
        if (regraded === undefined) keptJudged++;
        score = regraded ?? (result.score as Score);
      } else {
        // No judge (a task scored without one, or run with --exact-only): the scorer alone.
        score = scoreSafely(prepared, sample, result.output, result.transcript);
      }
      rescored++;
      if (result.score === null || verdictOf(score) !== verdictOf(result.score)) changed++;
      // The store writes a score as its JSON text, which reads back as the same object.
      if (result.score !== null && JSON.stringify(score) === JSON.stringify(result.score)) continue;
      const repeat = result.repeat ?? 0;
      const scores = byRepeat.get(repeat) ?? new Map<string, Score>();
      byRepeat.set(repeat, scores.set(result.sampleId, score));
    }
  }
  for (const [modelId, byRepeat] of updates) {
    for (const [repeat, scores] of byRepeat) await store.updateScores(run.id, modelId, scores, repeat);
  }
  const summary = await summarizeRun(store, run, task);
  return { summary, rescored, changed, keptJudged, storedOptions: run.options, scoredWith };
}

/**
 * Runs a task's model-graded scorer again with a judge that answers from the call cache only (no
 * model is called): the new score, or undefined when a judge call it made was not in the cache
 * (its prompt changed, or it was never answered) or the judgment otherwise failed — the stored
 * score then stands. A score given without any judge call (now an exact match) is taken as it is;
 * one that called the judge keeps the stored judgment's model, calls, tokens and cost (what the
 * judge did when it graded, not what the cache did now), with the scorer's audit trail read again.
 */
async function regradeFromCache(
  store: Store,
  run: RunRecord,
  prepared: PreparedTask,
  sample: Sample,
  output: GenerateResult,
  stored: Score | null,
  transcript?: Transcript,
): Promise<Score | undefined> {
  const judge = run.judge as NonNullable<RunRecord['judge']>;
  let calls = 0, missed = 0, inputTokens = 0, outputTokens = 0;
  const fromCache: RoleGenerate = async (role, request) => {
    if (role !== 'judge') return { output: null, error: { kind: 'unsupported', message: `a scorer may call the judge role only, not ${role}` } };
    calls++;
    const hit = await store.lookupCache(callCacheKey(judge.model, request));
    if (!hit) {
      missed++;
      return { output: null, error: { kind: 'not-cached', message: 'the judge has not answered this prompt' } };
    }
    inputTokens += hit.usage.inputTokens ?? 0;
    outputTokens += hit.usage.outputTokens ?? 0;
    return { output: hit, error: null };
  };
  let graded: Awaited<ReturnType<NonNullable<PreparedTask['gradeWithJudge']>>>;
  try {
    graded = await (prepared.gradeWithJudge as NonNullable<PreparedTask['gradeWithJudge']>)(sample, output, fromCache, judgeSettingsOf(run.seed, judge), transcript);
  } catch {
    return undefined;
  }
  // A judgment that needed an answer the cache does not hold is not the one stored: keep that one.
  if (!('score' in graded) || missed > 0) return undefined;
  if (calls === 0) return graded.score;
  const before = judgeMetadataOf(stored);
  // Never judged before (now needs the judge, and another run's judge answered the same prompt): as a run would store it, at a cache hit's cost.
  if (!before) return withJudgeTotals(graded.score, { model: judge.model, calls, inputTokens, outputTokens, costUsd: 0 });
  // The stored judgment (what the judge's calls cost when it graded), the scorer's audit trail
  // read again over it: the same keys in the same order, so an unchanged judgment is stored unchanged.
  const own = graded.score.metadata?.['judge'];
  const judgeMeta = withFields(before, own !== null && typeof own === 'object' ? own : {});
  return withFields(graded.score, { metadata: withFields(graded.score.metadata ?? {}, { judge: judgeMeta }) });
}
