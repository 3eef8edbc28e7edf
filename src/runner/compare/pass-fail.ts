import type { Interval } from '../../metrics/intervals.js';
import { mcnemarTest, type McNemarTest } from '../../metrics/mcnemar.js';
import { pairedProportionDifference } from '../../metrics/paired-proportions.js';
import type { SamplePair } from './sample-pairs.js';

/** The sample ids of each way a decided pair can go, and of the pairs left out for lack of a verdict. */
export interface PassFailBuckets {
  /** A pass, B fail. */
  readonly newlyFailing: readonly string[];
  /** A fail, B pass. */
  readonly newlyPassing: readonly string[];
  /** Fail on both sides. */
  readonly stillFailing: readonly string[];
  /** Pass on both sides. */
  readonly unchanged: readonly string[];
  /** No verdict on one side or both (neither pass nor fail): left out of the rates and the test. */
  readonly noVerdict: readonly string[];
}

/** Pass rates of A and B over the samples decided on both sides, their difference and McNemar's test. */
export interface PassFailComparison {
  /** What a pass is for this task ("pass", "no defect"). */
  readonly passMeans: string;
  /** Pairs with a pass or a fail on both sides: the denominator of both rates. */
  readonly decided: number;
  readonly noVerdict: number;
  readonly rateA: number | null;
  readonly rateB: number | null;
  /** rateB − rateA; null when nothing was decided on both sides. */
  readonly difference: number | null;
  /** 95% interval of the difference for paired proportions (Newcombe 1998, method 10). */
  readonly interval: Interval | null;
  readonly intervalMethod: 'newcombe-paired-hybrid-score';
  /** McNemar on the discordant pairs: firstOnly = newly failing, secondOnly = newly passing. */
  readonly mcnemar: McNemarTest;
  readonly buckets: PassFailBuckets;
}

/** Compares the pass/fail readings of paired samples that ended without error on both sides. */
export function comparePassFail(pairs: readonly SamplePair[], passMeans: string): PassFailComparison {
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
