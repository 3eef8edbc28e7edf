// V8 settings the CLI gives itself before anything else runs (imported first by run-cli.ts): a
// user never passes a flag. Each lowers the process's peak memory without CPU per sample
// (docs/benchmarks.md, "What a run's peak RSS is made of"):
//
// --liftoff-only: undici parses HTTP with llhttp, a WebAssembly module. Once its parser function
//   is hot, V8 recompiles it with TurboFan in a background thread, and that one compilation
//   allocates ~37 MB of compiler memory (heaptrack: register allocation zones) for ~0.1 s: at a
//   10-sample run it was the peak itself (160 → 125 MB). Liftoff's code for it is what every
//   response was parsed with until then; its parsing costs a few ms per 10,000 responses more.
// --heap-growing-percent=50: after a full GC, V8 lets the old generation grow by up to 4× before
//   the next one. A run promotes ~1 MB of short-lived objects (samples in flight) per scavenge, so
//   at 10,000 samples the old space filled with garbage from 22 to 88 MB before it was collected
//   once. 1.5× bounds that garbage by what is live; the heap is small, so a full GC is cheap (six
//   instead of three at 10,000 samples, tens of ms in all).
import { setFlagsFromString } from 'node:v8';

/** The flags, in the order they are set. Exported for the test that they are set. */
export const MEMORY_FLAGS = ['--liftoff-only', '--heap-growing-percent=50'] as const;

for (const flag of MEMORY_FLAGS) setFlagsFromString(flag);
