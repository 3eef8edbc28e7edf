// The submitting side of a queued run for `npm run bench:scale`, in its own process: records the
// synthetic run, enqueues its units, follows it from the store until every unit has a result and
// prints one JSON line (wall time from the start to the last result, its own CPU and peak RSS,
// the summary's metrics). Args: samples, store URL, Redis URL, queue name, concurrency. The run
// names no endpoint: the workers call the server they were given.
import { registerTask } from '../benchmarks/registry.js';
import { followRun } from '../queue/follow.js';
import { queueLocation } from '../queue/queue-location.js';
import { submitRun } from '../queue/submit.js';
import { summarizeStoredRun } from '../runner/run.js';
import { openStore } from '../store/open-store.js';
import { countRoundTrips, servicePorts } from './round-trips.js';
import { SYNTHETIC_TASK_NAME, syntheticTask } from './synthetic-task.js';

const [samplesArg, storeUrl, redisUrl, queueName, concurrencyArg] = process.argv.slice(2);
const roundTrips = countRoundTrips(servicePorts(storeUrl as string, redisUrl as string));
registerTask(syntheticTask);
const store = await openStore(storeUrl as string);
const cpuBefore = process.cpuUsage();
const started = performance.now();
const { run } = await submitRun(
  {
    task: SYNTHETIC_TASK_NAME,
    models: ['openai:bench-model'],
    seed: 1,
    options: { limit: Number(samplesArg) },
    dataDir: '.',
    engine: { concurrency: Number(concurrencyArg ?? 64), timeoutMs: 30_000, retry: { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 1000 }, cache: true },
  },
  { store, queue: queueLocation(redisUrl as string, queueName) },
);
const submittedMs = performance.now() - started;
const submitRssMB = process.resourceUsage().maxRSS / 1024;
const status = await followRun(store, run, { pollMs: 250 });
const wallMs = performance.now() - started;
const followRssMB = process.resourceUsage().maxRSS / 1024;
const cpu = process.cpuUsage(cpuBefore);
const summary = await summarizeStoredRun(store, run.id);
await store.close();
const model = summary.models['openai:bench-model'];
process.stdout.write(
  `${JSON.stringify({ run: run.id, status, samples: model?.counts.done, errors: model?.counts.errors, metrics: model?.metrics, submittedMs, wallMs, submitRssMB, followRssMB, roundTrips: roundTrips(), cpuMs: (cpu.user + cpu.system) / 1000, maxRssMB: process.resourceUsage().maxRSS / 1024 })}\n`,
);
