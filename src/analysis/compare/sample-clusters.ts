import type { ScoreComparison } from '../../benchmarks/task.js';
import { readResult, type ComparedResult, type InputDigests, type SideReading } from './sample-pairs.js';

/** A sample with results in both runs: each side's readings, one per repeat it has (in the run's order). */
export interface SampleCluster {
  readonly sampleId: string;
  readonly a: readonly SideReading[];
  readonly b: readonly SideReading[];
}

export interface ClusteredSamples {
  /** Samples with a result in both runs and the same input, in run A's sample order. */
  readonly clusters: readonly SampleCluster[];
  /** Samples with results in run A only / in run B only. */
  readonly onlyInA: number;
  readonly onlyInB: number;
  /** Samples with results in both runs under one id whose inputs differ: not paired, in no figure. */
  readonly inputDiffers: number;
}

/** Results grouped by sample id, in the order each sample first appears. */
function bySample(results: readonly ComparedResult[]): Map<string, ComparedResult[]> {
  const groups = new Map<string, ComparedResult[]>();
  for (const r of results) {
    const group = groups.get(r.sampleId);
    if (group) group.push(r);
    else groups.set(r.sampleId, [r]);
  }
  return groups;
}

/**
 * Pairs two result lists (one model each) by sample id alone, for runs with repeats: a sample's
 * repeats are correlated (one question, one model), so the sample, not the answer, is the unit of
 * the paired statistics. Each side keeps every repeat it has — the runs may have different
 * numbers of repeats, and a repeat of one run is never matched with a repeat of the other.
 * Given `inputs`, a sample pairs only when both runs stored the same input for it.
 */
export function clusterSamples(resultsA: readonly ComparedResult[], resultsB: readonly ComparedResult[], comparison: ScoreComparison, inputs?: InputDigests): ClusteredSamples {
  const groupsA = bySample(resultsA);
  const groupsB = bySample(resultsB);
  const clusters: SampleCluster[] = [];
  let inputDiffers = 0;
  for (const [sampleId, a] of groupsA) {
    const b = groupsB.get(sampleId);
    if (!b) continue;
    if (inputs && inputs.a.get(sampleId) !== inputs.b.get(sampleId)) inputDiffers++;
    else clusters.push({ sampleId, a: a.map((r) => readResult(r, comparison)), b: b.map((r) => readResult(r, comparison)) });
  }
  const matched = clusters.length + inputDiffers;
  return { clusters, onlyInA: groupsA.size - matched, onlyInB: groupsB.size - matched, inputDiffers };
}
