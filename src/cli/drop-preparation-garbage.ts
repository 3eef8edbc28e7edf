// A full garbage collection when a run's calls are about to start (the CLI's process only; the
// library never forces one), when preparing the run left big dead data behind. MetaTool's
// catalogue read as text (all_clean_data.csv alone was a 5.5 MB two-byte string), its JSON trees
// and CSV records landed in V8's old generation and large-object space, and once the calls start
// nothing may reach the old generation's limit for the whole run, so they stayed resident to the
// end: a 10,000-sample MetaTool run's peak RSS 156–162 → 145–148 MB for one collection of ~30 ms
// (docs/benchmarks.md, branch `startmem`). MetaTool now reads that file from its bytes, without a
// decoded text or a record per line (branch `startcpu`): its preparation leaves 1.4–2.1 MB of
// large objects, but the file's dead 2.77 MB buffer and the rest still want the collection
// (without it, 10,000 samples: peak 131–147 MB against 128–130 with it, and more CPU in the
// calls). So a run whose preparation read a big data file whole (`BIG_DATA_FILE`, counted by
// `readDataFileBytes`) gets it too, as it did when that file's text was in the large-object space.
//
// Only then: for a run whose preparation read no big file (summaries on BBC articles, harm on a
// generated resource: 0.7 MB of large objects at the first request, against 8.8 MB for MetaTool),
// the forced collection *raised* the peak, by 6–8 MB (bench:compare, 2 pairs each: summaries
// 1.049×, harm 1.058× against the same tree without it), V8 then growing its heap on its own
// schedule from a smaller start. Large objects are what a preparation that read a big file leaves
// (a whole file's text, a parsed array), and their space's size is a cheap reading.
//
// V8 collects on demand only through `gc`, which it defines in contexts made while --expose-gc
// is set: one is made for it, and the flag is put back at once so no later context has `gc`.
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { takeBigDataFileBytes } from '../datasets/read-data-file.js';

/** Bytes of V8's large-object space from which a run's preparation is taken to have left big dead data. */
export const LARGE_PREPARATION_GARBAGE = 4 * 1024 * 1024;

let collect: (() => void) | undefined;

/** Runs one full garbage collection now. */
export function collectGarbage(): void {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
    setFlagsFromString('--no-expose-gc');
  }
  collect();
}

/** Whether heap spaces as `v8.getHeapSpaceStatistics()` reads them hold enough large objects to be worth a collection. */
export function holdsLargePreparationGarbage(spaces: readonly { readonly space_name: string; readonly space_used_size: number }[]): boolean {
  const large = spaces.find((space) => space.space_name === 'large_object_space');
  return large !== undefined && large.space_used_size >= LARGE_PREPARATION_GARBAGE;
}

/** One full collection now if the run's preparation read a big data file or left big data behind (`holdsLargePreparationGarbage`); whether it ran. */
export function dropPreparationGarbage(): boolean {
  const readBigFile = takeBigDataFileBytes() > 0;
  if (!readBigFile && !holdsLargePreparationGarbage(getHeapSpaceStatistics())) return false;
  collectGarbage();
  return true;
}
