import { pairedMeanDifference } from '../../metrics/paired-mean.js';
import type { SampleCluster } from './sample-clusters.js';
import { meanValue } from './sample-shares.js';
import type { ValueComparison } from './comparison-shapes.js';

/**
 * The numeric reading of runs with repeats, one unit per sample: each side's mean over its
 * repeats with a number, then the paired mean machinery over samples (`pairedMeanDifference`:
 * percentile bootstrap resampling samples, sign-flip test) — what a run without repeats gets,
 * applied to the per-sample means. `seed` fixes the draws.
 */
export function compareSampleValues(clusters: readonly SampleCluster[], valueMeans: string, seed: string): ValueComparison {
  const decided: (readonly [number, number])[] = [];
  const noVerdictIds: string[] = [];
  for (const { sampleId, a, b } of clusters) {
    const [meanA, meanB] = [meanValue(a), meanValue(b)];
    if (meanA === null || meanB === null) noVerdictIds.push(sampleId);
    else decided.push([meanA, meanB]);
  }
  const r = pairedMeanDifference(decided, { seed });
  return {
    valueMeans,
    decided: r.n,
    noVerdict: noVerdictIds.length,
    noVerdictIds,
    meanA: r.first,
    meanB: r.second,
    difference: r.difference,
    interval: r.interval,
    intervalMethod: 'cluster-percentile-bootstrap',
    bootstrapResamples: r.resamples,
    test: { method: 'sign-flip-permutation', ...r.test },
    higher: r.higher,
    lower: r.lower,
    equal: r.equal,
  };
}
