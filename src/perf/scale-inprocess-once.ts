// One in-process run of the synthetic task in a fresh process (its CPU and peak RSS its own), for
// `npm run bench:scale`. Args: samples, server url, store location, concurrency. Prints one JSON line.
import { registerTask } from '../benchmarks/registry.js';
import { startRun } from '../runner/run.js';
import { openStore } from '../store/open-store.js';
import { countRoundTrips, servicePorts } from './round-trips.js';
import { SYNTHETIC_TASK_NAME, syntheticTask } from './synthetic-task.js';

const [samplesArg, url, location, concurrencyArg] = process.argv.slice(2);
const samples = Number(samplesArg);
const concurrency = Number(concurrencyArg ?? 64);
// PostgreSQL's round trips, when the store is one (no Redis on this path).
const roundTrips = (location as string).startsWith('postgres') ? countRoundTrips(servicePorts(location as string, 'redis://127.0.0.1:6379')) : undefined;
registerTask(syntheticTask);
await import('../models/providers/openai/openai-provider.js');

const store = await openStore(location as string);
const cpuBefore = process.cpuUsage();
const started = performance.now();
const summary = await startRun(
  {
    task: SYNTHETIC_TASK_NAME,
    models: ['openai:bench-model'],
    seed: 1,
    options: { limit: samples },
    dataDir: '.',
    engine: { concurrency, timeoutMs: 30_000, retry: { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 1000 }, cache: true, openaiBaseURL: url as string },
  },
  { store },
);
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
await store.close();
const model = summary.models['openai:bench-model'];
process.stdout.write(
  `${JSON.stringify({ run: summary.run, samples: model?.counts.done, errors: model?.counts.errors, metrics: model?.metrics, wallMs, ...(roundTrips ? { roundTrips: roundTrips() } : {}), cpuMs: (cpu.user + cpu.system) / 1000, maxRssMB: process.resourceUsage().maxRSS / 1024 })}\n`,
);
