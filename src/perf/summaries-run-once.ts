// One measured summaries/alignment run in a fresh process (so its CPU and peak RSS are its own),
// for `npm run bench:summaries` (summaries.ts). Prints one JSON line.
import { join } from 'node:path';
import { startRun } from '../runner/run.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';

const [url, dataDir, dbPath, concurrencyArg, questionsArg, limitArg] = process.argv.slice(2) as [string, string, string, string, string, string | undefined];
const articles = join(dataDir, 'bbc');
const MODELS = ['openai:writer-a', 'openai:writer-b'] as const;
const concurrency = Number(concurrencyArg);
const coverageQuestions = Number(questionsArg);
const limit = limitArg ? Number(limitArg) : undefined;

// A one-time cost per process, not per summary, paid before timing (as run-once.ts does): the
// OpenAI provider's code (undici included), which the model registry imports on first use.
await import('../models/providers/openai/openai-provider.js');

const store = await openSqliteStore(dbPath);
const cpuBefore = process.cpuUsage();
const eluBefore = performance.eventLoopUtilization();
const started = performance.now();
let createdAt = started;
const summary = await startRun(
  {
    task: 'summaries/alignment',
    models: [...MODELS],
    seed: 1,
    options: { task: { articles, coverageQuestions }, ...(limit ? { limit } : {}) },
    dataDir,
    engine: { concurrency, timeoutMs: 30_000, retry: { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 1000 }, cache: true, openaiBaseURL: url },
    judge: { model: 'openai:judge', repeats: 1, format: 'json', maxParseRetries: 2, temperature: 0 },
  },
  { store, onRunCreated: () => (createdAt = performance.now()) },
);
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
const eventLoopBusy = performance.eventLoopUtilization(eluBefore).utilization;
await store.close();
const models = Object.fromEntries(
  MODELS.map((id) => {
    const m = summary.models[id];
    return [
      id,
      {
        done: m?.counts.done,
        errors: m?.counts.errors,
        cached: m?.counts.cached,
        judged: m?.metrics['judged'],
        noVerdict: m?.metrics['no_verdict'],
        metricErrors: m?.metrics['errors'],
        judgeCalls: m?.judge?.calls,
        alignment: m?.metrics['alignment'],
        claimSupport: m?.metrics['claim_support'],
        richness: m?.metrics['richness'],
        coverage: m?.metrics['coverage'],
      },
    ];
  }),
);
process.stdout.write(
  `${JSON.stringify({
    run: summary.run,
    status: summary.status,
    wallMs,
    setupMs: createdAt - started,
    cpuMs: (cpu.user + cpu.system) / 1000,
    eventLoopBusy,
    maxRssMB: process.resourceUsage().maxRSS / 1024,
    models,
  })}\n`,
);
