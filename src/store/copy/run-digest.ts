import { createHash, type Hash } from 'node:crypto';
import { canonicalJson } from '../../core/index.js';
import type { RunRecord, RunSlice } from '../records.js';
import { runRecordWithColumns } from '../run-events.js';
import type { Store } from '../store.js';

/**
 * The checksum of a run's content as the Store contract reads it back: the run record, then
 * every sample, call, result and review in the contract's order, each as canonical JSON (keys
 * sorted, so how a backend happens to order an object's keys does not count; everything else —
 * a value, a timestamp, the order of calls — does). Computed by the same function on both sides
 * of a copy, it proves the copy reads back as the original did, whatever each backend keeps.
 */

/** The parts of a run that are counted and summed one by one, so a mismatch can name its table. */
export const RUN_PARTS = ['run', 'samples', 'calls', 'results', 'reviews'] as const;
export type RunPart = (typeof RUN_PARTS)[number];

export interface RunChecksum {
  /** Records per part (`run` is always 1). */
  readonly counts: Readonly<Record<RunPart, number>>;
  /** sha256 (hex) of each part's records in order. */
  readonly sums: Readonly<Record<RunPart, string>>;
  /** sha256 (hex) of the parts' sums: the run's checksum. */
  readonly checksum: string;
}

/** Records are fed in order: the run first, then slices as `Store.runSlice` gives them. */
export class RunDigest {
  private readonly hashes = new Map<RunPart, Hash>(RUN_PARTS.map((part) => [part, createHash('sha256')]));
  private readonly counts: Record<RunPart, number> = { run: 0, samples: 0, calls: 0, results: 0, reviews: 0 };

  constructor(run: RunRecord) {
    // The record as it was shaped before its checksums and versions moved into `provenance`: a
    // run's checksum stays what it was.
    this.feed('run', [runRecordWithColumns(run)]);
  }

  add(slice: RunSlice): void {
    this.feed('samples', slice.samples);
    this.feed('calls', slice.calls);
    this.feed('results', slice.results);
    this.feed('reviews', slice.reviews);
  }

  finish(): RunChecksum {
    const sums = Object.fromEntries(RUN_PARTS.map((part) => [part, (this.hashes.get(part) as Hash).digest('hex')])) as Record<RunPart, string>;
    const checksum = createHash('sha256').update(RUN_PARTS.map((part) => `${part}:${sums[part]}`).join('\n')).digest('hex');
    return { counts: { ...this.counts }, sums, checksum };
  }

  private feed(part: RunPart, records: readonly unknown[]): void {
    const hash = this.hashes.get(part) as Hash;
    // One line per record: a record can never run into the next and make the same bytes.
    for (const record of records) hash.update(`${canonicalJson(record)}\n`);
    this.counts[part] += records.length;
  }
}

/** Reads run `run` from `store` slice by slice (`pageSize` samples at a time) and sums it. */
export async function runChecksum(store: Store, run: RunRecord, pageSize: number, onSlice?: (samplesRead: number) => void): Promise<RunChecksum> {
  const digest = new RunDigest(run);
  for (let from = 0; ; from += pageSize) {
    const slice = await store.runSlice(run.id, from, pageSize);
    if (slice.samples.length === 0) break;
    digest.add(slice);
    onSlice?.(from + slice.samples.length);
  }
  return digest.finish();
}

/** The parts whose count or sum differ between two checksums of one run (empty: the same content). */
export function differingParts(a: RunChecksum, b: RunChecksum): RunPart[] {
  return RUN_PARTS.filter((part) => a.counts[part] !== b.counts[part] || a.sums[part] !== b.sums[part]);
}
