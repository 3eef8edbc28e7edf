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

/** A sample's facts (see `SampleFacts`), apart from its input (and anything else the object holds). */
export function sampleFacts(sample: SampleFacts): SampleFacts {
  return { id: sample.id, target: sample.target, metadata: sample.metadata };
}

/** Throws when two samples share an id: results, calls and resume all find a sample by its id. */
export function assertUniqueSampleIds(samples: Iterable<Sample>, where: string): void {
  assertUniqueIds(idsOf(samples), where);
}

/** `assertUniqueSampleIds` for the ids alone (see `sampleIds`: a list built on demand need not build its samples for them). */
export function assertUniqueIds(ids: Iterable<string>, where: string): void {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) throw new Error(`${where}: sample id "${id}" occurs twice; sample ids must be unique`);
    seen.add(id);
  }
}

function* idsOf(samples: Iterable<Sample>): Generator<string> {
  for (const sample of samples) yield sample.id;
}

/**
 * A task's samples in order, read by position. An array is one. A task with very many samples
 * can build each on demand instead (`buildSamples`): the engine reads a sample by position just
 * before it is stored or called, so a run of 100,000 samples holds only the samples in flight.
 * Reading the same position twice gives an equal sample (not necessarily the same object).
 */
export interface SampleList extends SamplesByPosition, Iterable<Sample> {}

/**
 * Samples read by position only, as a run's engine reads them: a `SampleList`, or a list that
 * cannot give every sample at once (a resumed run's stored samples, read from the store a page at
 * a time as the calls reach them: `runner/resumed-samples.ts`).
 */
export interface SamplesByPosition {
  readonly length: number;
  /** The sample at `index` in [0, length); undefined outside. */
  at(index: number): Sample | undefined;
  /** The id of the sample at `index` in [0, length), when the list knows it without building the sample. */
  idAt?(index: number): string;
}

/** The id of the sample at `index`, read with `idAt` when the list has it (no sample built), else from its sample. */
export const sampleIdAt = (samples: SamplesByPosition, index: number): string => (samples.idAt ? samples.idAt(index) : sampleAt(samples, index).id);

/** The ids of a list's samples in order (`sampleIdAt`). */
export function* sampleIds(samples: SamplesByPosition): Generator<string> {
  for (let i = 0; i < samples.length; i++) yield sampleIdAt(samples, i);
}

/** What a list built on demand may add (see `buildSamples`). */
export interface BuildSamplesOptions {
  /** The id of the sample at an index, cheaper than building it. */
  readonly idAt?: (index: number) => string;
}

/**
 * A list of `length` samples, each built by `build(index)` every time it is read, and not kept.
 * A new run reads each position twice, a few hundred positions apart (to store it, then to call
 * it): building twice costs a few microseconds a sample, while samples kept in between outlive
 * two scavenges and fill V8's old space with garbage (the peak RSS of a long run: 256-sample
 * blocks kept for that were ~45% of the bytes promoted, and were built ~3.9 times a sample as
 * the store's chunks and the blocks fell out of step; docs/benchmarks.md, issue 29).
 */
export function buildSamples(length: number, build: (index: number) => Sample, options: BuildSamplesOptions = {}): SampleList {
  const { idAt } = options;
  return {
    length,
    at: (index) => (Number.isInteger(index) && index >= 0 && index < length ? build(index) : undefined),
    ...(idAt ? { idAt } : {}),
    *[Symbol.iterator]() {
      for (let i = 0; i < length; i++) yield build(i);
    },
  };
}

/** The sample at `index`, which the caller knows is in the list (a RangeError otherwise: a bug, not bad input). */
export function sampleAt(samples: SamplesByPosition, index: number): Sample {
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
