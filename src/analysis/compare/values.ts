import { pairedMeanDifference } from '../../metrics/paired-mean.js';
import type { SamplePair } from './sample-pairs.js';
import type { ValueComparison } from './comparison-shapes.js';
export type { ValueComparison } from './comparison-shapes.js';

/**
 * Compares the numeric readings of paired samples that ended without error on both sides.
 * `seed` fixes the bootstrap and the test's draws, so the same stored scores always give the
 * same figures.
 */
export function compareValues(pairs: readonly SamplePair[], valueMeans: string, seed: string): ValueComparison {
  const decided: (readonly [number, number])[] = [];
  const noVerdictIds: string[] = [];
  for (const { sampleId, a, b } of pairs) {
    if (a.kind !== 'read' || b.kind !== 'read') throw new Error(`compareValues: pair ${sampleId} has an error; errors are counted apart before`);
    if (a.value === null || b.value === null) noVerdictIds.push(sampleId);
    else decided.push([a.value, b.value]);
  }
  return valueComparisonOf(decided, noVerdictIds, valueMeans, seed, 'paired-percentile-bootstrap');
}

/**
 * The comparison of decided pairs of numbers (a sample's, or a sample's means over its repeats:
 * `intervalMethod` says which), through the paired mean machinery: percentile bootstrap and
 * sign-flip test; the no-verdict pairs counted apart.
 */
export function valueComparisonOf(
  decided: readonly (readonly [number, number])[],
  noVerdictIds: readonly string[],
  valueMeans: string,
  seed: string,
  intervalMethod: ValueComparison['intervalMethod'],
): ValueComparison {
  const r = pairedMeanDifference(decided, { seed });
  return {
    valueMeans,
    decided: r.n,
    noVerdict: noVerdictIds.length,
    noVerdictIds: [...noVerdictIds],
    meanA: r.first,
    meanB: r.second,
    difference: r.difference,
    interval: r.interval,
    intervalMethod,
    bootstrapResamples: r.resamples,
    test: { method: 'sign-flip-permutation', ...r.test },
    higher: r.higher,
    lower: r.lower,
    equal: r.equal,
  };
}
