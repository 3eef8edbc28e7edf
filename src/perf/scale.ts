// `npm run bench:scale`: the synthetic task (perf/synthetic-task.ts) against a loopback server in
// its own process at 50 ms latency, on the in-process path (SQLite and PostgreSQL stores) and on
// the queue path (a submitting process and 1, 2 and 4 worker processes on BullMQ/Redis with the
// PostgreSQL store, 64 units in flight in all). Prints wall time against the ideal, throughput,
// CPU per sample (every process of the path), peak RSS per process and the servers' PostgreSQL
// transactions and Redis commands per sample. Figures, not assertions: see docs/scale-out.md.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ScratchSchemas, TEST_POSTGRES_URL } from '../store/postgres/test-support/scratch-schemas.js';
import type { RoundTrips } from './round-trips.js';
import { readServiceCounters } from './service-counters.js';
import { MEMORY_FLAGS } from '../core/v8-memory-flags.js';
import { firstLine, measureInChild } from './child-process.js';

const here = dirname(fileURLToPath(import.meta.url));
const LATENCY_MS = 50;
const CONCURRENCY = 64;
const REDIS_URL = process.env['ASSAY_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const sizes = (process.env['ASSAY_BENCH_SIZES'] ?? '10000,100000').split(',').filter(Boolean).map(Number);
const stores = (process.env['ASSAY_BENCH_STORES'] ?? 'sqlite,postgres').split(',').filter(Boolean);
const queueSizes = (process.env['ASSAY_BENCH_QUEUE_SIZES'] ?? '10000').split(',').filter(Boolean).map(Number);
const workerCounts = (process.env['ASSAY_BENCH_WORKERS'] ?? '1,2,4').split(',').filter(Boolean).map(Number);
// The memory check at the largest size: one worker is enough (its peak is per process).
const memorySizes = (process.env['ASSAY_BENCH_QUEUE_MEMORY'] ?? '100000').split(',').filter(Boolean).map(Number);

const idealSeconds = (samples: number): number => (samples * LATENCY_MS) / CONCURRENCY / 1000;

const server = spawn(process.execPath, [join(here, 'synthetic-server-process.js'), String(LATENCY_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
const { url } = JSON.parse(await firstLine(server)) as { url: string };
const schemas = new ScratchSchemas();

console.log(`synthetic task against a loopback server: latency ${LATENCY_MS} ms, concurrency ${CONCURRENCY}, call cache on`);
console.log('path         store      samples   wall s   ideal s   ratio   CPU ms/sample   peak RSS MB   PG xact/sample   accuracy');
interface InProcessResult {
  readonly samples: number;
  readonly errors: number;
  readonly metrics: { readonly accuracy: number | null };
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly maxRssMB: number;
  /** Requests sent to PostgreSQL and Redis, counted client-side (`round-trips.ts`): a PostgreSQL store's only. */
  readonly roundTrips?: RoundTrips;
}
for (const n of sizes) {
  for (const kind of stores) {
    const dir = mkdtempSync(join(tmpdir(), 'assay-scale-'));
    const location = kind === 'postgres' ? (await schemas.create()).url : join(dir, 'scale.db');
    const before = kind === 'postgres' ? await readServiceCounters(TEST_POSTGRES_URL, REDIS_URL) : undefined;
    const result = await measureInChild<InProcessResult>('scale-inprocess-once.js', [String(n), url, location, String(CONCURRENCY)], MEMORY_FLAGS);
    const after = kind === 'postgres' ? await readServiceCounters(TEST_POSTGRES_URL, REDIS_URL) : undefined;
    rmSync(dir, { recursive: true, force: true });
    const wall = result.wallMs / 1000;
    const xacts = before && after ? ((after.pgTransactions - before.pgTransactions) / result.samples).toFixed(2) : '–';
    console.log(
      `${'in-process'.padEnd(11)}  ${kind.padEnd(9)}  ${String(result.samples).padStart(7)}  ${wall.toFixed(2).padStart(7)}  ${idealSeconds(result.samples).toFixed(2).padStart(8)}  ${(wall / idealSeconds(result.samples)).toFixed(3).padStart(6)}  ${(result.cpuMs / result.samples).toFixed(3).padStart(14)}  ${result.maxRssMB.toFixed(0).padStart(12)}  ${xacts.padStart(15)}  ${String(result.metrics.accuracy).padStart(9)}`,
    );
    if (result.roundTrips) console.log(`             round trips per sample, client side: PostgreSQL ${(result.roundTrips.postgres / result.samples).toFixed(2)}`);
  }
}
interface SubmitResult extends InProcessResult {
  readonly status: string;
  readonly submittedMs: number;
  /** The submitter's peak RSS once the units were enqueued and once the run had finished (before its summary). */
  readonly submitRssMB: number;
  readonly followRssMB: number;
}
interface WorkerResult {
  readonly cpuMs: number;
  readonly maxRssMB: number;
  readonly roundTrips: RoundTrips;
}

/** A child that prints a first JSON line when ready and a last one when it ends. */
function startWorkerProcess(storeUrl: string, queue: string, concurrency: number): { ready: Promise<void>; result: Promise<WorkerResult>; child: ReturnType<typeof spawn> } {
  const child = spawn(process.execPath, [...MEMORY_FLAGS, join(here, 'scale-worker-process.js'), storeUrl, REDIS_URL, queue, String(concurrency), url], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const seen: string[] = [];
  let onReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  lines.on('line', (line) => {
    seen.push(line);
    if (seen.length === 1) onReady();
  });
  const result = once(child, 'close').then(() => JSON.parse(seen[seen.length - 1] as string) as WorkerResult);
  return { ready, result, child };
}

async function queueRow(n: number, workers: number): Promise<void> {
  const storeUrl = (await schemas.create()).url;
  const queue = `bench-${process.pid}-${n}-${workers}-${Date.now().toString(36)}`;
  // 64 units in flight in all, as the in-process rows, whatever the number of workers.
  const perWorker = Math.max(1, Math.floor(CONCURRENCY / workers));
  const started = Array.from({ length: workers }, () => startWorkerProcess(storeUrl, queue, perWorker));
  await Promise.all(started.map((w) => w.ready));
  const before = await readServiceCounters(TEST_POSTGRES_URL, REDIS_URL);
  const submit = await measureInChild<SubmitResult>('scale-submit-once.js', [String(n), storeUrl, REDIS_URL, queue, String(perWorker)], MEMORY_FLAGS);
  const after = await readServiceCounters(TEST_POSTGRES_URL, REDIS_URL);
  for (const w of started) w.child.kill('SIGTERM');
  const results = await Promise.all(started.map((w) => w.result));
  const wall = submit.wallMs / 1000;
  const workerCpu = results.reduce((sum, r) => sum + r.cpuMs, 0);
  const cpuPerSample = (workerCpu + submit.cpuMs) / submit.samples;
  console.log(
    `${`queue ×${workers}`.padEnd(11)}  ${'postgres'.padEnd(9)}  ${String(submit.samples).padStart(7)}  ${wall.toFixed(2).padStart(7)}  ${idealSeconds(submit.samples).toFixed(2).padStart(8)}  ${(wall / idealSeconds(submit.samples)).toFixed(3).padStart(6)}  ${cpuPerSample.toFixed(3).padStart(14)}  ${`${submit.maxRssMB.toFixed(0)} / ${Math.max(...results.map((r) => r.maxRssMB)).toFixed(0)}`.padStart(12)}  ${((after.pgTransactions - before.pgTransactions) / submit.samples).toFixed(2).padStart(15)}  ${String(submit.metrics.accuracy).padStart(9)}  ${((after.redisCommands - before.redisCommands) / submit.samples).toFixed(2).padStart(10)}  ${(submit.samples / wall).toFixed(0).padStart(10)}  ${(workerCpu / submit.samples).toFixed(3).padStart(10)}  ${(submit.submittedMs / 1000).toFixed(2).padStart(8)}`,
  );
  const trips = [submit.roundTrips, ...results.map((r) => r.roundTrips)].filter((t): t is RoundTrips => t !== undefined);
  const perSample = (key: keyof RoundTrips): string => (trips.reduce((sum, t) => sum + t[key], 0) / submit.samples).toFixed(2);
  console.log(`             round trips per sample, client side (all processes): PostgreSQL ${perSample('postgres')}, Redis ${perSample('redis')} (${perSample('redisWrites')} commands written)`);
  // Where the submitter's peak comes from: building and enqueueing, following, or the final summary (read from the store).
  console.log(`             submitter peak RSS: ${submit.submitRssMB.toFixed(0)} MB after enqueueing, ${submit.followRssMB.toFixed(0)} MB after following, ${submit.maxRssMB.toFixed(0)} MB after the summary`);
}

if (queueSizes.length > 0 || memorySizes.length > 0) {
  console.log('');
  console.log('queue path: a submitting process and N workers (64 units in flight in all), PostgreSQL store, BullMQ on Redis');
  console.log('path         store      samples   wall s   ideal s   ratio   CPU ms/sample   RSS MB s/w   PG xact/sample   accuracy   Redis/smp   samples/s   worker CPU   submit s');
  for (const n of queueSizes) for (const w of workerCounts) await queueRow(n, w);
  for (const n of memorySizes) await queueRow(n, 1);
}
console.log('');
console.log('CPU ms/sample: every process of the path (the submitter and the workers); RSS s/w: the submitter\'s peak / the largest worker\'s; PG xact and Redis commands are the servers\' counters (whole servers: run on a quiet machine)');
server.kill('SIGTERM');
await once(server, 'close');
await schemas.dropAll();
