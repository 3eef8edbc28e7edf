// V8 settings the CLI gives itself before anything else runs (imported first by run-cli.ts): a
// user never passes a flag. docs/benchmarks.md ("what a run's peak RSS is made of") has the
// measurements.
//
// --liftoff-only: undici parses HTTP with llhttp, a WebAssembly module. Once its parser function
//   is hot, V8 recompiles it with TurboFan in a background thread: 0.6–1.1 s of compilation
//   (`--trace-wasm-compilation-times`) holding up to 29 MB of compiler memory (heaptrack:
//   register-allocation zones), the peak of every short run (10 samples: 155–158 → 127–132 MB).
//   Liftoff's code, which parses every response until then, is slower by ~40 ms per 10,000
//   responses (CPU profile self time), so the compilation it spares pays for ~150,000 of them.
//
// Not set: --heap-growing-percent=50 (old space bounded at 1.5× live instead of ~4×: 10,000
// samples' peak ~200 → ~175 MB, but two to three times the full GCs, and the main thread's GC time
// rose by ~0.4 s per 10,000 samples) and a smaller young generation (more scavenges): both cost
// CPU per sample.
import { setFlagsFromString } from 'node:v8';

/** The flags, in the order they are set. Exported for the test that this V8 knows them. */
export const MEMORY_FLAGS = ['--liftoff-only'] as const;

for (const flag of MEMORY_FLAGS) setFlagsFromString(flag);
