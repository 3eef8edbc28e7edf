import { pairedMeanDifference } from '../../metrics/paired-mean.js';
import type { SampleCluster } from './sample-clusters.js';
import { passShare } from './sample-shares.js';
import type { SamplePassFail } from './comparison-shapes.js';

/**
 * The pass/fail reading of runs with repeats, one unit per sample (a cluster analysis): each
 * side's share of passing repeats (over its repeats with a verdict), the per-sample difference
 * B − A, its mean with a 95% percentile bootstrap interval over samples (each resampled with both
 * its shares: `pairedMeanDifference`) and a sign-flip test of the per-sample differences. A
 * sample without a repeat with a verdict on a side is no verdict, counted apart. `seed` fixes
 * the draws.
 */
export function compareSamplePassFail(clusters: readonly SampleCluster[], passMeans: string, seed: string): SamplePassFail {
  const buckets = { newlyFailing: [] as string[], newlyPassing: [] as string[], stillFailing: [] as string[], unchanged: [] as string[], noVerdict: [] as string[] };
  const shares: (readonly [number, number])[] = [];
  for (const { sampleId, a, b } of clusters) {
    const [shareA, shareB] = [passShare(a), passShare(b)];
    if (shareA === null || shareB === null) {
      buckets.noVerdict.push(sampleId);
      continue;
    }
    shares.push([shareA, shareB]);
    if (shareB < shareA) buckets.newlyFailing.push(sampleId);
    else if (shareB > shareA) buckets.newlyPassing.push(sampleId);
    else if (shareA === 0) buckets.stillFailing.push(sampleId);
    else buckets.unchanged.push(sampleId);
  }
  const r = pairedMeanDifference(shares, { seed });
  return {
    passMeans,
    decided: r.n,
    noVerdict: buckets.noVerdict.length,
    rateA: r.first,
    rateB: r.second,
    difference: r.difference,
    interval: r.interval,
    intervalMethod: 'cluster-percentile-bootstrap',
    bootstrapResamples: r.resamples,
    test: { method: 'sign-flip-permutation', ...r.test },
    buckets,
  };
}
