import { samplesBetween, type Sample, type SampleList } from '../core/index.js';

/**
 * A sample as the store keeps it. Hints are left out: they are derived data (the structured
 * question a baseline reads), rebuilt by `reopen` from the same task, and storing them would
 * nearly double each row.
 */
export function storedForm(sample: Sample): Sample {
  if (sample.hints === undefined) return sample;
  const { hints: _hints, ...stored } = sample;
  return stored;
}

/** The samples at positions [from, to) in their stored form, built now: one chunk to store. */
export function storedChunk(samples: SampleList, from: number, to: number): Sample[] {
  return samplesBetween(samples, from, to).map(storedForm);
}
