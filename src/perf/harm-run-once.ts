// One measured harm-measurement run in a fresh process (so its CPU and peak RSS are its own), for
// `npm run bench:harm` (harm.ts). Prints one JSON line.
import { startRun } from '../runner/run.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';

const [url, resource, dbPath, concurrencyArg, repeatsArg] = process.argv.slice(2) as [string, string, string, string, string];

// A one-time cost per process, paid before timing (as run-once.ts does): the OpenAI provider's code.
await import('../models/providers/openai/openai-provider.js');

const store = await openSqliteStore(dbPath);
const cpuBefore = process.cpuUsage();
const eluBefore = performance.eventLoopUtilization();
const started = performance.now();
const summary = await startRun(
  {
    task: `harm:${resource}`,
    models: ['openai:sut'],
    userModel: 'openai:user',
    seed: 1,
    options: {},
    dataDir: resource,
    engine: { concurrency: Number(concurrencyArg), timeoutMs: 30_000, retry: { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 1000 }, cache: true, openaiBaseURL: url },
    judge: { model: 'openai:judge', repeats: Number(repeatsArg), format: 'json', maxParseRetries: 2, temperature: 0 },
  },
  { store },
);
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
const eventLoopBusy = performance.eventLoopUtilization(eluBefore).utilization;
const m = summary.models['openai:sut'];
await store.close();
process.stdout.write(
  `${JSON.stringify({
    status: summary.status,
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    eventLoopBusy,
    maxRssMB: process.resourceUsage().maxRSS / 1024,
    done: m?.counts.done,
    errors: m?.counts.errors,
    cached: m?.counts.cached,
    judged: m?.metrics['judged'],
    noVerdict: m?.metrics['no_verdict'],
    defectRate: m?.metrics['defect_rate'],
    meanTurns: m?.metrics['mean_turns'],
  })}\n`,
);
