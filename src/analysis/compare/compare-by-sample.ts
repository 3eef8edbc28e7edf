import type { ScoreComparison } from '../../benchmarks/task.js';
import type { ClusteredSamples, SampleCluster } from './sample-clusters.js';
import { compareSamplePassFail } from './sample-pass-fail.js';
import { compareSampleValues } from './sample-values.js';
import type { ModelComparison, SamplePairing } from './comparison-shapes.js';

/** Answers per sample of each run (`RunRecord.repeats`, 1 for a run without). */
export interface RunRepeats {
  readonly a: number;
  readonly b: number;
}

/** "paired by sample: 40 samples × up to 3 repeats, cluster bootstrap over samples", saying each side's k when they differ. */
function describe(samples: number, repeats: RunRepeats, repeatErrors: number): string {
  const k = repeats.a === repeats.b ? `up to ${repeats.a} repeats` : `up to ${repeats.a} repeat(s) in A, ${repeats.b} in B (each side over its own repeats)`;
  const errors = repeatErrors > 0 ? `; ${repeatErrors} repeat(s) ended in error, left out of their sample's figure` : '';
  return `paired by sample: ${samples} samples × ${k}, cluster bootstrap over samples${errors}`;
}

/**
 * One model pair of runs with repeats (a run with k > 1), compared with the sample as the unit:
 * a sample's repeats are not independent, so counting each (sample, repeat) as a unit would make
 * the intervals too narrow. A sample every repeat of which ended in error on a side is an error
 * (left out, as a pair in error is without repeats); a repeat in error in a sample with others
 * read is left out of that sample's share or mean and counted (`repeatErrors`).
 */
export function compareModelBySample(modelA: string, modelB: string, clustered: ClusteredSamples, comparison: ScoreComparison, repeats: RunRepeats): ModelComparison {
  const { clusters } = clustered;
  const bothRead = (c: SampleCluster): boolean => c.a.some((r) => r.kind === 'read') && c.b.some((r) => r.kind === 'read');
  const errorIds = clusters.filter((c) => !bothRead(c)).map((c) => c.sampleId);
  const clean = clusters.filter(bothRead);
  const repeatErrors = clean.reduce((n, c) => n + [...c.a, ...c.b].filter((r) => r.kind === 'error').length, 0);
  const has = (key: 'pass' | 'value'): boolean => clean.some((c) => [...c.a, ...c.b].some((r) => r.kind === 'read' && r[key] !== null));
  const hasValue = has('value');
  // A task whose every shared sample lacks a verdict still shows that, under pass/fail.
  const hasPass = has('pass') || !hasValue;
  const pairing: SamplePairing = { unit: 'sample', repeatsA: repeats.a, repeatsB: repeats.b, repeatErrors, description: describe(clusters.length, repeats, repeatErrors) };
  return {
    modelA,
    modelB,
    samples: { shared: clusters.length, onlyInA: clustered.onlyInA, onlyInB: clustered.onlyInB, inputDiffers: clustered.inputDiffers, errors: errorIds.length },
    pairing,
    errorIds,
    passFail: hasPass ? compareSamplePassFail(clean, comparison.passMeans ?? 'pass', `compare:${modelA}:${modelB}:pass`) : null,
    value: hasValue ? compareSampleValues(clean, comparison.valueMeans ?? 'score', `compare:${modelA}:${modelB}`) : null,
  };
}
