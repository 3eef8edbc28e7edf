// V8 settings the CLI gives itself before anything else runs (`cli/v8-flags.ts`, imported first
// by run-cli.ts): a user never passes a flag. The benches that run assay in a process of their own
// (`perf/`: `npm run bench`'s runs, bench:scale's) start it with the same flags, so that they
// measure what a user's command runs. docs/benchmarks.md ("what a run's peak RSS is made of", "the
// end of a run") has the measurements.
//
// --liftoff-only: undici parses HTTP with llhttp, a WebAssembly module. Once its parser function
//   is hot, V8 recompiles it with TurboFan in a background thread: 0.6–1.1 s of compilation
//   (`--trace-wasm-compilation-times`) holding up to 29 MB of compiler memory (heaptrack:
//   register-allocation zones), the peak of every short run (10 samples: 155–158 → 127–132 MB).
//   Liftoff's code, which parses every response until then, is slower by ~40 ms per 10,000
//   responses (CPU profile self time), so the compilation it spares pays for ~150,000 of them.
//
// --heap-growing-percent=100: old space may grow to 2× the heap live after a full GC, where V8's
//   own factor (up to 4× while its GCs are fast) let a run's promoted garbage pile up: ~0.9 KB per
//   call, so a 98,965-call run's RSS climbed 140 → 200 MB before its first full GC at 85 s, and
//   with this flag it stays 150–163 MB through the calls (a full GC of ~10 ms every ~20 s). At
//   10,000 calls the old space stays under either limit, so the peak does not move (132 MB) and
//   one full GC more costs ~10 ms. 50 (1.5×) was measured too: more full GCs for no lower peak at
//   10,000 or 19,793 samples, and ~0.4 s more GC per 10,000 samples when the calls promoted 2.5×
//   what they do now (docs/benchmarks.md, "the end of a run").
//
// Not set: a smaller young generation (more scavenges): it costs CPU per sample.
/** The flags, in the order they are set. */
export const MEMORY_FLAGS = ['--liftoff-only', '--heap-growing-percent=100'] as const;
