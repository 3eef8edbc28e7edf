import type { ScoreComparison } from '../../benchmarks/task.js';
import type { ResultRecord } from '../../store/records.js';

/** One side of a paired sample: an error (no score to read), or its score's readings (null: no verdict). */
export type SideReading = { readonly kind: 'error' } | { readonly kind: 'read'; readonly pass: boolean | null; readonly value: number | null };

/** A sample (and repeat) with a result in both runs. */
export interface SamplePair {
  readonly sampleId: string;
  /** The repeat both results are (`ResultRecord.repeat`), when it is not 0: runs with repeats pair by sample and repeat. */
  readonly repeat?: number;
  readonly a: SideReading;
  readonly b: SideReading;
}

export interface PairedSamples {
  /** Samples with a result in both runs and the same input, in run A's sample order. */
  readonly pairs: readonly SamplePair[];
  /** Samples with a result in run A only / in run B only (the other run never finished them, or does not have them). */
  readonly onlyInA: number;
  readonly onlyInB: number;
  /** Samples with a result in both runs under one id whose inputs differ (another question): not paired, in no figure. */
  readonly inputDiffers: number;
}

/** Each run's stored inputs by sample id (`storedForComparison`): samples pair only when theirs agree. */
export interface InputDigests {
  readonly a: ReadonlyMap<string, string>;
  readonly b: ReadonlyMap<string, string>;
}

/**
 * What a comparison reads of a stored result: whose (sample, model, repeat), and its status and
 * score. A `ResultRecord` is one; `compareRuns` keeps only these of each result it reads.
 */
export type ComparedResult = Pick<ResultRecord, 'sampleId' | 'modelId' | 'repeat' | 'status' | 'score'>;

/** A stored result as a comparison reads it: an error stays an error; a missing reading is no verdict. */
export function readResult(result: ComparedResult, comparison: ScoreComparison): SideReading {
  if (result.status === 'error') return { kind: 'error' };
  if (result.score === null) return { kind: 'read', pass: null, value: null };
  const read = comparison.read(result.score);
  return { kind: 'read', pass: read.pass ?? null, value: read.value ?? null };
}

/** A result's unit within one model's results: its sample and repeat (absent = 0). */
const unitOf = (r: ComparedResult): string => JSON.stringify([r.sampleId, r.repeat ?? 0]);

/**
 * Pairs two result lists (one model each) by sample id and repeat (repeat r with repeat r; runs
 * without repeats have only repeat 0); only units with a result on both sides count, and, given
 * `inputs`, only those whose stored inputs agree (the others are `inputDiffers`). Each pair is one
 * unit of the paired statistics, which is right for runs without repeats: runs with repeats are
 * compared by sample instead (`sample-clusters.ts`), their repeats being correlated.
 */
export function pairSamples(resultsA: readonly ComparedResult[], resultsB: readonly ComparedResult[], comparison: ScoreComparison, inputs?: InputDigests): PairedSamples {
  const byId = new Map(resultsB.map((r) => [unitOf(r), r]));
  const pairs: SamplePair[] = [];
  let inputDiffers = 0;
  for (const a of resultsA) {
    const b = byId.get(unitOf(a));
    if (!b) continue;
    if (inputs && inputs.a.get(a.sampleId) !== inputs.b.get(a.sampleId)) inputDiffers++;
    else pairs.push({ sampleId: a.sampleId, ...(a.repeat ? { repeat: a.repeat } : {}), a: readResult(a, comparison), b: readResult(b, comparison) });
  }
  const matched = pairs.length + inputDiffers;
  return { pairs, onlyInA: resultsA.length - matched, onlyInB: resultsB.length - matched, inputDiffers };
}
