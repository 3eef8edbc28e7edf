import type { Interval } from '../../metrics/intervals.js';
import { mcnemarTest, type McNemarTest } from '../../metrics/mcnemar.js';
import { pairedProportionDifference } from '../../metrics/paired-proportions.js';
import type { SamplePair } from './sample-pairs.js';
import type { PairedPassFail } from './comparison-shapes.js';
export type { PairedPassFail, PassFailBuckets, PassFailComparison, SamplePassFail } from './comparison-shapes.js';

/** Compares the pass/fail readings of paired samples that ended without error on both sides. */
export function comparePassFail(pairs: readonly SamplePair[], passMeans: string): PairedPassFail {
  const buckets = { newlyFailing: [] as string[], newlyPassing: [] as string[], stillFailing: [] as string[], unchanged: [] as string[], noVerdict: [] as string[] };
  for (const { sampleId, a, b } of pairs) {
    if (a.kind !== 'read' || b.kind !== 'read') throw new Error(`comparePassFail: pair ${sampleId} has an error; errors are counted apart before`);
    if (a.pass === null || b.pass === null) buckets.noVerdict.push(sampleId);
    else if (a.pass && b.pass) buckets.unchanged.push(sampleId);
    else if (a.pass) buckets.newlyFailing.push(sampleId);
    else if (b.pass) buckets.newlyPassing.push(sampleId);
    else buckets.stillFailing.push(sampleId);
  }
  const table = { both: buckets.unchanged.length, firstOnly: buckets.newlyFailing.length, secondOnly: buckets.newlyPassing.length, neither: buckets.stillFailing.length };
  const difference = pairedProportionDifference(table);
  return {
    passMeans,
    decided: difference.n,
    noVerdict: buckets.noVerdict.length,
    rateA: difference.first,
    rateB: difference.second,
    difference: difference.difference,
    interval: difference.interval,
    intervalMethod: 'newcombe-paired-hybrid-score',
    mcnemar: mcnemarTest(table.firstOnly, table.secondOnly),
    buckets,
  };
}
