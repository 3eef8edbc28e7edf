// A full garbage collection when a run's calls are about to start (the CLI's process only; the
// library never forces one). Preparing a run leaves dead data behind — MetaTool's catalogue read
// as text (all_clean_data.csv alone is a 5.5 MB two-byte string), JSON trees, CSV records — in
// V8's old generation, and once the calls start nothing may reach the old generation's limit for
// the whole run, so it stayed resident to the end: a 10,000-sample MetaTool run's peak RSS
// 156–162 → 145–148 MB for one collection of ~30 ms (docs/benchmarks.md, branch `startmem`).
// V8 collects on demand only through `gc`, which it defines in contexts made while --expose-gc
// is set: one is made for it, and the flag is put back at once so no later context has `gc`.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

/** Runs one full garbage collection now. */
export function dropPreparationGarbage(): void {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
    setFlagsFromString('--no-expose-gc');
  }
  collect();
}
