// `npm run bench:scale`: the synthetic task (perf/synthetic-task.ts) against a loopback server in
// its own process at 50 ms latency, on the in-process path (SQLite and PostgreSQL stores). Prints
// wall time against the ideal, CPU per sample, peak RSS and, on PostgreSQL, the server's
// transactions per sample. Figures, not assertions: see docs/benchmarks.md and docs/scale-out.md.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ScratchSchemas, TEST_POSTGRES_URL } from '../store/postgres/test-support/scratch-schemas.js';
import { readServiceCounters } from './service-counters.js';

const here = dirname(fileURLToPath(import.meta.url));
const LATENCY_MS = 50;
const CONCURRENCY = 64;
const REDIS_URL = process.env['ASSAY_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const sizes = (process.env['ASSAY_BENCH_SIZES'] ?? '10000,100000').split(',').map(Number);
const stores = (process.env['ASSAY_BENCH_STORES'] ?? 'sqlite,postgres').split(',');

async function firstLine(child: ReturnType<typeof spawn>): Promise<string> {
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const [line] = (await once(lines, 'line')) as [string];
  lines.close();
  return line;
}

async function measureInChild<T>(script: string, args: readonly string[]): Promise<T> {
  const child = spawn(process.execPath, [join(here, script), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const result = JSON.parse(await firstLine(child)) as T;
  await once(child, 'close');
  return result;
}

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
}
for (const n of sizes) {
  for (const kind of stores) {
    const dir = mkdtempSync(join(tmpdir(), 'assay-scale-'));
    const location = kind === 'postgres' ? (await schemas.create()).url : join(dir, 'scale.db');
    const before = kind === 'postgres' ? await readServiceCounters(TEST_POSTGRES_URL, REDIS_URL) : undefined;
    const result = await measureInChild<InProcessResult>('scale-inprocess-once.js', [String(n), url, location, String(CONCURRENCY)]);
    const after = kind === 'postgres' ? await readServiceCounters(TEST_POSTGRES_URL, REDIS_URL) : undefined;
    rmSync(dir, { recursive: true, force: true });
    const wall = result.wallMs / 1000;
    const xacts = before && after ? ((after.pgTransactions - before.pgTransactions) / result.samples).toFixed(2) : '–';
    console.log(
      `${'in-process'.padEnd(11)}  ${kind.padEnd(9)}  ${String(result.samples).padStart(7)}  ${wall.toFixed(2).padStart(7)}  ${idealSeconds(result.samples).toFixed(2).padStart(8)}  ${(wall / idealSeconds(result.samples)).toFixed(3).padStart(6)}  ${(result.cpuMs / result.samples).toFixed(3).padStart(14)}  ${result.maxRssMB.toFixed(0).padStart(12)}  ${xacts.padStart(15)}  ${String(result.metrics.accuracy).padStart(9)}`,
    );
  }
}
server.kill('SIGTERM');
await once(server, 'close');
await schemas.dropAll();
