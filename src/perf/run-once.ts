// One measured run in a fresh process (so peak RSS belongs to this N alone). Prints one JSON line.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findTask } from '../benchmarks/registry.js';
import { benchSampleOptions } from './sample-options.js';
import { startRun } from '../runner/run.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';

const [samplesArg, url, dataDir, concurrencyArg] = process.argv.slice(2);
const samples = Number(samplesArg);
const concurrency = Number(concurrencyArg ?? 64);
const options = benchSampleOptions(samples);

// One-time costs per process, not per sample, paid before timing: parsing the MetaTool files, and
// loading the OpenAI provider's code (undici included), which the registry imports on first use
// where the runner and the store, imported above, load with the process.
await findTask('metatool/similar').prepare({ dataDir: dataDir as string, seed: 1, options: { perTool: 1, limit: 1 } });
await import('../models/providers/openai/openai-provider.js');

const dir = mkdtempSync(join(tmpdir(), 'assay-bench-'));
const store = await openSqliteStore(join(dir, 'bench.db'));
const cpuBefore = process.cpuUsage();
const eluBefore = performance.eventLoopUtilization();
const started = performance.now();
let createdAt = started;
let lastFinishedAt = started;
const summary = await startRun(
  {
    task: 'metatool/similar',
    models: ['openai:bench-model'],
    seed: 1,
    options,
    dataDir: dataDir as string,
    engine: { concurrency, timeoutMs: 30_000, retry: { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 1000 }, cache: true, openaiBaseURL: url as string },
  },
  {
    store,
    onRunCreated: () => (createdAt = performance.now()),
    onProgress: () => (lastFinishedAt = performance.now()),
  },
);
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
await store.close();
rmSync(dir, { recursive: true, force: true });
const counts = summary.models['openai:bench-model']?.counts;
process.stdout.write(
  `${JSON.stringify({
    samples: counts?.done,
    errors: counts?.errors,
    wallMs,
    // Building the samples and storing the first chunk of them, before the first call; then the calls (the rest are stored as they go).
    setupMs: createdAt - started,
    callsMs: lastFinishedAt - createdAt,
    cpuMs: (cpu.user + cpu.system) / 1000,
    // Share of the wall time the main thread was busy (the rest of the CPU is GC and I/O threads).
    eventLoopBusy: performance.eventLoopUtilization(eluBefore).utilization,
    maxRssMB: process.resourceUsage().maxRSS / 1024,
  })}\n`,
);
