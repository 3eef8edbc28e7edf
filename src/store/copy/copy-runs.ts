import { InputError } from '../../core/errors.js';
import type { RunRecord } from '../records.js';
import type { Store } from '../store.js';
import { differingParts, RunDigest, runChecksum, type RunChecksum, type RunPart } from './run-digest.js';

/** Samples (with their calls, results and reviews) read and written at a time: memory stays flat whatever a run's size. */
export const DEFAULT_PAGE_SIZE = 1000;

export interface CopyOptions {
  /** The runs to copy, by id or unique prefix in the source; every run when absent or empty. */
  readonly runs?: readonly string[];
  /** A run the target holds with other content is deleted there and copied again (otherwise it is refused). */
  readonly replace?: boolean;
  readonly pageSize?: number;
  /** Told after each page of a run read or written: what is being done and how many samples so far. */
  readonly onProgress?: (progress: CopyProgress) => void;
}

export interface CopyProgress {
  readonly runId: string;
  readonly doing: 'copying' | 'checking the source' | 'checking the target';
  readonly samples: number;
}

/** What became of one run, in the order the runs are taken (oldest first). */
export type CopyOutcome =
  /** Copied in one transaction, and the target reads it back with the source's checksum. */
  | { readonly runId: string; readonly status: 'copied'; readonly checksum: RunChecksum; readonly replaced: boolean }
  /** The target holds it already with the same checksum: nothing written. */
  | { readonly runId: string; readonly status: 'already there'; readonly checksum: RunChecksum }
  /** Not copied, for `reason` (running, or other content in the target); nothing written. */
  | { readonly runId: string; readonly status: 'refused'; readonly reason: string; readonly checksum?: RunChecksum }
  /** Written, but the target read back other content: removed from the target again. */
  | { readonly runId: string; readonly status: 'mismatch'; readonly parts: readonly RunPart[]; readonly source: RunChecksum; readonly target: RunChecksum }
  /** The copy failed part-way (the target refused a record): rolled back, nothing written. */
  | { readonly runId: string; readonly status: 'failed'; readonly reason: string };

/**
 * Copies runs from `source` to `target` (`assay migrate`), one at a time, oldest first, telling
 * each outcome as it is known. A run is copied whole in one import transaction, page by page,
 * its checksum taken from the pages read; once committed, the target's copy is read back
 * through the contract and summed by the same function: a difference removes it again. A run a
 * process holds the lease of (running now) is refused: it changes while it is read. Leases are
 * not copied. Runs named that the source does not have are an `InputError` before anything.
 */
export async function* copyRuns(source: Store, target: Store, options: CopyOptions = {}): AsyncGenerator<CopyOutcome> {
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  for (const run of await runsToCopy(source, options.runs ?? [])) {
    yield await copyRun(source, target, run, pageSize, options);
  }
}

/** The named runs (each once), or all of them; oldest first, so the newest call of a cache key is the newest run's, as in the source. */
async function runsToCopy(source: Store, named: readonly string[]): Promise<RunRecord[]> {
  let runs: RunRecord[];
  if (named.length === 0) runs = await source.listRuns();
  else {
    const found = new Map<string, RunRecord>();
    for (const idOrPrefix of named) {
      const run = await source.getRun(idOrPrefix);
      if (run === undefined) throw new InputError(`no run ${idOrPrefix} in the store to copy from (see assay runs --db <from>)`);
      found.set(run.id, run);
    }
    runs = [...found.values()];
  }
  return runs.sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1));
}

async function copyRun(source: Store, target: Store, run: RunRecord, pageSize: number, options: CopyOptions): Promise<CopyOutcome> {
  const runId = run.id;
  const progress = (doing: CopyProgress['doing']) => (samples: number) => options.onProgress?.({ runId, doing, samples });
  const lease = await source.runLease(runId);
  if (lease?.live) {
    return { runId, status: 'refused', reason: `running: pid ${lease.holder.pid} on ${lease.holder.host} holds its lease (until ${lease.expiresAt}); copy it once it stops` };
  }
  let replaced = false;
  const there = await target.getRun(runId);
  if (there !== undefined && there.id === runId) {
    const [mine, theirs] = [await runChecksum(source, run, pageSize, progress('checking the source')), await runChecksum(target, there, pageSize, progress('checking the target'))];
    const parts = differingParts(mine, theirs);
    if (parts.length === 0) return { runId, status: 'already there', checksum: mine };
    const differs = `the target holds run ${runId} with other content (${describeParts(parts, mine, theirs)})`;
    if (!options.replace) return { runId, status: 'refused', reason: `${differs}; --replace overwrites it`, checksum: mine };
    const theirLease = await target.runLease(runId);
    if (theirLease?.live) return { runId, status: 'refused', reason: `${differs}, and a process (pid ${theirLease.holder.pid} on ${theirLease.holder.host}) is running it there`, checksum: mine };
    await target.deleteRun(runId);
    replaced = true;
  }

  const digest = new RunDigest(run);
  const imported = await target.importRun(run);
  try {
    for (let from = 0; ; from += pageSize) {
      const slice = await source.runSlice(runId, from, pageSize);
      if (slice.samples.length === 0) break;
      digest.add(slice);
      await imported.add(slice);
      progress('copying')(from + slice.samples.length);
    }
    await imported.commit();
  } catch (error) {
    await imported.abort();
    return { runId, status: 'failed', reason: `the target refused it, nothing of it was kept: ${String((error as Error).message ?? error).replace(/\s*\n\s*/g, ' ')}` };
  }
  const copied = digest.finish();
  const readBack = await target.getRun(runId);
  const check = readBack === undefined ? undefined : await runChecksum(target, readBack, pageSize, progress('checking the target'));
  const parts = check === undefined ? ['run' as const] : differingParts(copied, check);
  if (parts.length === 0) return { runId, status: 'copied', checksum: copied, replaced };
  await target.deleteRun(runId);
  return { runId, status: 'mismatch', parts, source: copied, target: check ?? copied };
}

/** `results: 12 in both, sums differ` — which parts differ and how, for a refusal. */
export function describeParts(parts: readonly RunPart[], source: RunChecksum, target: RunChecksum): string {
  return parts
    .map((part) => {
      const [a, b] = [source.counts[part], target.counts[part]];
      return a === b ? `${part}: ${a} in both, contents differ` : `${part}: ${a} in the source, ${b} in the target`;
    })
    .join('; ');
}
