// A long run's old generation kept to what the run holds (the CLI's process only, as
// `drop-preparation-garbage.ts`; the library never forces a collection). What a run keeps does not
// grow with it: its live heap stays at 18–19 MB from the first thousand samples of a MetaTool run to
// the last of 30,000 calls, read after a forced full collection. But what outlives two scavenges
// (as much as undici alone promotes on the same requests: ~10 MB per 10,000) waits in old space
// for a mark-compact that V8, far from its limit, does not start: peak RSS read 131–133 MB at
// 10,000 samples, 141 at 30,000 calls and 146 at 100,000 (docs/benchmarks.md).
// So once old space has grown by `GROWTH_BYTES` since the first reading after the last collection,
// one runs: a full collection of a ~18 MB live heap, ~15–25 ms on the main thread, every ~10,000
// MetaTool samples; a run of 10,000 never reaches it. (V8's `gc({ execution: 'async' })` marks
// atomically in Node 20 all the same: no shorter pause to be had.)
import { getHeapSpaceStatistics } from 'node:v8';
import { collectGarbage } from './drop-preparation-garbage.js';

/** Finished samples between two readings of old space (a reading is one call of `getHeapSpaceStatistics`). */
export const CHECK_EVERY = 1_000;

/** Growth of old space in use, since the first reading after the last collection, that runs the next one. */
export const GROWTH_BYTES = 4 * 1024 * 1024;

/**
 * The least time between two collections: whatever a run promotes, the collections cost at most a
 * full collection's pause (~15–25 ms here) every 10 s. A task that promotes 4 MB per thousand
 * samples would otherwise collect every thousand (the queue worker, which promotes faster, read
 * 8% more wall and 7% more CPU with a collection each 4 MB, and no lower peak: it is not paced).
 */
export const MIN_INTERVAL_MS = 10_000;

/** Old space in use now, dead objects not yet swept included. */
const oldSpaceUsed = (): number => getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')?.space_used_size ?? 0;

/**
 * Told each progress count (samples finished so far in this session); reads old space every
 * `CHECK_EVERY` samples and runs a full collection when it has grown by `growth` since the first
 * reading after the last one (or after the run's start), and `minIntervalMs` have passed since the
 * last. Returns whether it ran one.
 */
export function collectionPacer(
  options: { readonly growth?: number; readonly every?: number; readonly minIntervalMs?: number; readonly used?: () => number; readonly collect?: () => void; readonly now?: () => number } = {},
): (finished: number) => boolean {
  const { growth = GROWTH_BYTES, every = CHECK_EVERY, minIntervalMs = MIN_INTERVAL_MS, used = oldSpaceUsed, collect = () => collectGarbage(), now: clock = () => performance.now() } = options;
  let nextCheck = every;
  let lastCollection = Number.NEGATIVE_INFINITY;
  /** Old space in use at the first reading since the run started or the last collection. */
  let baseline: number | undefined;
  return (finished) => {
    if (finished < nextCheck) return false;
    nextCheck = finished + every;
    const now = used();
    if (baseline === undefined) {
      baseline = now;
      return false;
    }
    if (now - baseline < growth || clock() - lastCollection < minIntervalMs) return false;
    // The next reading, what the collection left plus what came since, is the next baseline.
    baseline = undefined;
    lastCollection = clock();
    collect();
    return true;
  };
}
