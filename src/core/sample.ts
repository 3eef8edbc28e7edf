import type { ReferenceHints } from './reference-hints.js';
import type { Message } from './messages.js';
import type { ToolSpec } from './tools.js';

/** One item of a benchmark: immutable, with an id that is stable for the same data, options and seed. */
export interface Sample<Target = unknown, Meta extends Record<string, unknown> = Record<string, unknown>> {
  readonly id: string;
  readonly input: readonly Message[];
  readonly tools?: readonly ToolSpec[];
  readonly target: Target;
  readonly metadata: Meta;
  readonly hints?: ReferenceHints;
}

/**
 * What metrics see of a sample: its id, target and metadata. Not its input: metrics describe the
 * scores, and a summary of a 100,000-sample run need not hold every prompt to compute them.
 */
export type SampleFacts = Pick<Sample, 'id' | 'target' | 'metadata'>;

/** A sample's facts (see `SampleFacts`), apart from its input. */
export function sampleFacts(sample: Sample): SampleFacts {
  return { id: sample.id, target: sample.target, metadata: sample.metadata };
}

/** Throws when two samples share an id: results, calls and resume all find a sample by its id. */
export function assertUniqueSampleIds(samples: Iterable<Sample>, where: string): void {
  const seen = new Set<string>();
  for (const sample of samples) {
    if (seen.has(sample.id)) throw new Error(`${where}: sample id "${sample.id}" occurs twice; sample ids must be unique`);
    seen.add(sample.id);
  }
}

/**
 * A task's samples in order, read by position. An array is one. A task with very many samples
 * can build each on demand instead (`buildSamples`): the engine reads a sample by position just
 * before it is stored or called, so a run of 100,000 samples holds only the samples in flight.
 * Reading the same position twice gives an equal sample (not necessarily the same object).
 */
export interface SampleList extends Iterable<Sample> {
  readonly length: number;
  /** The sample at `index` in [0, length); undefined outside. */
  at(index: number): Sample | undefined;
}

/** A list of `length` samples, each built by `build(index)` when it is read and not kept. */
export function buildSamples(length: number, build: (index: number) => Sample): SampleList {
  return {
    length,
    at: (index) => (Number.isInteger(index) && index >= 0 && index < length ? build(index) : undefined),
    *[Symbol.iterator]() {
      for (let i = 0; i < length; i++) yield build(i);
    },
  };
}

/** The sample at `index`, which the caller knows is in the list (a RangeError otherwise: a bug, not bad input). */
export function sampleAt(samples: SampleList, index: number): Sample {
  const sample = samples.at(index);
  if (sample === undefined) throw new RangeError(`sample ${index} asked of a list of ${samples.length}`);
  return sample;
}

/** The samples at positions [from, to), built now. */
export function samplesBetween(samples: SampleList, from: number, to: number): Sample[] {
  const chunk: Sample[] = [];
  for (let i = from; i < Math.min(to, samples.length); i++) chunk.push(sampleAt(samples, i));
  return chunk;
}
