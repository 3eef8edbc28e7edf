import type { ScoreComparison } from '../../benchmarks/task.js';
import { InputError } from '../../core/index.js';
import type { RunRecord } from '../../store/records.js';
import { compareModelBySample } from './compare-by-sample.js';
import { pairModels } from './model-pairs.js';
import { comparePassFail, type PassFailComparison } from './pass-fail.js';
import { clusterSamples } from './sample-clusters.js';
import { pairSamples, type ComparedResult, type InputDigests, type SamplePair } from './sample-pairs.js';
import { compareValues, type ValueComparison } from './values.js';
import type { ComparedRun, ModelComparison, RunComparison } from './comparison-shapes.js';
export type { ComparedRun, ModelComparison, RunComparison } from './comparison-shapes.js';

export interface ComparisonInput {
  readonly runA: RunRecord;
  readonly runB: RunRecord;
  /** Run A's stored results (any models; only the paired ones are read), whole records or what a comparison reads of them. */
  readonly resultsA: readonly ComparedResult[];
  readonly resultsB: readonly ComparedResult[];
  /** How the task's scores read (`comparisonOf(task)`). */
  readonly comparison: ScoreComparison;
  /** Each run's stored inputs by sample id: given, samples pair only when theirs agree. */
  readonly inputs?: InputDigests;
  /** Notes the caller adds (an unknown task, human reviews not applied). */
  readonly notes?: readonly string[];
}

const sideOf = (run: RunRecord): ComparedRun => ({ id: run.id, taskVersion: run.taskVersion, createdAt: run.createdAt, status: run.status, models: run.models });

/** A run of another task is no comparison: its samples, scores and metrics mean other things. */
export function refuseOtherTask(runA: RunRecord, runB: RunRecord): void {
  if (runA.task !== runB.task) {
    throw new InputError(`cannot compare run ${runA.id} with run ${runB.id}: run A is ${runA.task}, run B is ${runB.task}; compare two runs of the same task`);
  }
}

/**
 * Compares two runs of the same task, sample by sample (pure: the caller reads the store). Per
 * model pair: the samples shared, only in A, only in B; pairs with an error on either side
 * counted and left out; then the pass/fail reading (pass rates, B − A with Newcombe's interval,
 * McNemar, the four buckets) and the numeric one (means, B − A with a paired bootstrap interval,
 * a sign-flip test), each over the pairs with a verdict on both sides, no verdicts counted apart.
 * When either run has repeats (k > 1) the unit is the sample, not the answer: each side's share
 * of passing repeats (or mean number) per sample, compared over samples with a bootstrap that
 * resamples samples and a sign-flip test ({@link compareModelBySample}); each side keeps its own
 * repeats, whatever the other run's k.
 *
 * @throws InputError for runs of different tasks, models that do not pair, or no shared sample.
 */
export function buildRunComparison(input: ComparisonInput): RunComparison {
  const { runA, runB, comparison } = input;
  refuseOtherTask(runA, runB);
  const { pairs: modelPairs, notes: pairingNotes } = pairModels(runA, runB);
  const notes = [...pairingNotes, ...(input.notes ?? [])];
  if (runA.taskVersion !== runB.taskVersion) notes.push(`task versions differ: ${runA.taskVersion} (run A), ${runB.taskVersion} (run B); its samples or scoring may have changed in between`);
  const repeats = { a: runA.repeats ?? 1, b: runB.repeats ?? 1 };
  const bySample = repeats.a > 1 || repeats.b > 1;
  if (bySample && repeats.a !== repeats.b) notes.push(`repeats differ: ${repeats.a} per sample in run A, ${repeats.b} in run B; paired by sample, each side over its own repeats`);
  const comparisons = modelPairs.map(({ a, b }) => {
    const resultsA = input.resultsA.filter((r) => r.modelId === a);
    const resultsB = input.resultsB.filter((r) => r.modelId === b);
    if (bySample) return compareModelBySample(a, b, clusterSamples(resultsA, resultsB, comparison, input.inputs), comparison, repeats);
    const paired = pairSamples(resultsA, resultsB, comparison, input.inputs);
    return compareModel(a, b, paired.pairs, paired, comparison);
  });
  if (comparisons.every((c) => c.samples.shared === 0)) {
    const differ = comparisons.reduce((n, c) => n + c.samples.inputDiffers, 0);
    const counts = comparisons
      .map((c) => `${c.modelA === c.modelB ? c.modelA : `${c.modelA} vs ${c.modelB}`}: ${c.samples.onlyInA} ${bySample ? 'sample(s)' : 'result(s)'} in A, ${c.samples.onlyInB} in B${c.samples.inputDiffers > 0 ? `, ${c.samples.inputDiffers} under one id with another input` : ''}`)
      .join('; ');
    const why = differ > 0 ? 'the same ids ask other questions (another --seed, --per-tool or data?)' : 'their samples differ (another --tools, --limit or seed?) or one has no results yet';
    throw new InputError(`runs ${runA.id} and ${runB.id} share no sample with the same input and a result on both sides (${counts}); ${why}`);
  }
  return { task: runA.task, runA: sideOf(runA), runB: sideOf(runB), notes, comparisons };
}

function compareModel(modelA: string, modelB: string, pairs: readonly SamplePair[], counts: { readonly onlyInA: number; readonly onlyInB: number; readonly inputDiffers: number }, comparison: ScoreComparison): ModelComparison {
  const errorIds = pairs.filter((p) => p.a.kind === 'error' || p.b.kind === 'error').map((p) => p.sampleId);
  const clean = pairs.filter((p) => p.a.kind === 'read' && p.b.kind === 'read');
  const reads = (key: 'pass' | 'value'): boolean => clean.some(({ a, b }) => (a.kind === 'read' && a[key] !== null) || (b.kind === 'read' && b[key] !== null));
  const hasValue = reads('value');
  // A task whose every shared sample lacks a verdict still shows that, under pass/fail.
  const hasPass = reads('pass') || !hasValue;
  return {
    modelA,
    modelB,
    samples: { shared: pairs.length, onlyInA: counts.onlyInA, onlyInB: counts.onlyInB, inputDiffers: counts.inputDiffers, errors: errorIds.length },
    errorIds,
    passFail: hasPass ? comparePassFail(clean, comparison.passMeans ?? 'pass') : null,
    value: hasValue ? compareValues(clean, comparison.valueMeans ?? 'score', `compare:${modelA}:${modelB}`) : null,
  };
}
