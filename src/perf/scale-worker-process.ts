// One queue worker for `npm run bench:scale`, in its own process (its CPU and peak RSS its own):
// the synthetic task registered (a worker rebuilds a run by its task's name), then units taken
// from the queue until SIGTERM, when it prints one JSON line. Args: store URL, Redis URL, queue
// name, concurrency, the server's URL (this worker's own endpoint).
import { registerTask } from '../benchmarks/registry.js';
import { queueLocation } from '../queue/queue-location.js';
import { startUnitWorker } from '../queue/unit-worker.js';
import { openStore } from '../store/open-store.js';
import { countRoundTrips, servicePorts } from './round-trips.js';
import { syntheticTask } from './synthetic-task.js';

const [storeUrl, redisUrl, queueName, concurrencyArg, serverUrl] = process.argv.slice(2);
const roundTrips = countRoundTrips(servicePorts(storeUrl as string, redisUrl as string));
registerTask(syntheticTask);
await import('../models/providers/openai/openai-provider.js');
const store = await openStore(storeUrl as string);
const cpuBefore = process.cpuUsage();
const worker = await startUnitWorker({ store, queue: queueLocation(redisUrl as string, queueName), concurrency: Number(concurrencyArg ?? 64), openaiBaseURL: serverUrl as string });
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
process.once('SIGTERM', () => {
  void (async () => {
    await worker.close();
    await store.close();
    const cpu = process.cpuUsage(cpuBefore);
    process.stdout.write(`${JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000, maxRssMB: process.resourceUsage().maxRSS / 1024, roundTrips: roundTrips() })}\n`);
    process.exit(0);
  })();
});
