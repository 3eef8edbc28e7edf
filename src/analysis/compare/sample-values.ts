import type { SampleCluster } from './sample-clusters.js';
import { meanValue } from './sample-shares.js';
import type { ValueComparison } from './comparison-shapes.js';
import { valueComparisonOf } from './values.js';

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
  return valueComparisonOf(decided, noVerdictIds, valueMeans, seed, 'cluster-percentile-bootstrap');
}
