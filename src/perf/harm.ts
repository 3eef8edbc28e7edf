// `npm run bench:harm`: harm measurement on a generated resource of 1,000 personas (ASSAY_BENCH_N),
// 5 turns each (the simulated user never ends), judge repeats 5, every role scripted on a loopback
// OpenAI-compatible server in its own process at 50 ms latency, concurrency 64. Two runs of the
// same spec in fresh processes on one SQLite store: the first calls everything, the second must be
// answered from the cache. Prints wall time against the ideal, CPU per call and peak RSS. Figures,
// not assertions: see docs/benchmarks.md.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstLine } from './child-process.js';
import { writeHarmResource } from './harm-resource.js';

const here = dirname(fileURLToPath(import.meta.url));
const LATENCY_MS = 50;
const CONCURRENCY = 64;
const TURNS = 5;
const REPEATS = 5;
const N = Number(process.env['ASSAY_BENCH_N'] ?? 1000);
if (!(Number.isInteger(N) && N > 0)) throw new Error(`ASSAY_BENCH_N must be a positive integer, got ${process.env['ASSAY_BENCH_N']}`);

/** Calls of one conversation: a user message and an answer per turn, then the judge's repeats. */
const CALLS_PER_CONVERSATION = 2 * TURNS + REPEATS;
/** One after the other: the turns' 2 calls each, then the repeats side by side. */
const CRITICAL_PATH_CALLS = 2 * TURNS + 1;

interface RunResult {
  readonly status: string;
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly eventLoopBusy: number;
  readonly maxRssMB: number;
  readonly done: number;
  readonly errors: number;
  readonly cached: number;
  readonly judged: number;
  readonly noVerdict: number;
  readonly defectRate: number | null;
  readonly meanTurns: number | null;
}

const server = spawn(process.execPath, [join(here, 'harm-server-process.js'), String(LATENCY_MS)], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
const { url } = JSON.parse(await firstLine(server)) as { url: string };

async function requestsSoFar(): Promise<number> {
  server.send({ type: 'count' });
  for (;;) {
    const [message] = (await once(server, 'message')) as [{ type?: string; requests: number }];
    if (message.type === 'count') return message.requests;
  }
}

async function runOnce(resource: string, dbPath: string): Promise<RunResult> {
  const child = spawn(process.execPath, [join(here, 'harm-run-once.js'), url, resource, dbPath, String(CONCURRENCY), String(REPEATS)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const result = JSON.parse(await firstLine(child)) as RunResult;
  await once(child, 'close');
  return result;
}

const dir = mkdtempSync(join(tmpdir(), 'assay-bench-harm-'));
try {
  const resource = join(dir, 'resource');
  writeHarmResource(resource, N, TURNS);
  const dbPath = join(dir, 'harm.db');
  console.log(`harm measurement on a generated resource: ${N} personas × ${TURNS} turns (the simulated user never ends), judge repeats ${REPEATS}`);
  console.log(`simulated user, system under test and judge scripted on a loopback server in its own process; latency ${LATENCY_MS} ms, concurrency ${CONCURRENCY}, SQLite store, call cache on`);
  const start = await requestsSoFar();
  const first = await runOnce(resource, dbPath);
  const mid = await requestsSoFar();
  const second = await runOnce(resource, dbPath);
  const end = await requestsSoFar();
  const latency = LATENCY_MS / 1000;
  const calls = CALLS_PER_CONVERSATION * N;
  // One conversation is a chain: ⌈N / workers⌉ rounds of the critical path.
  const ideal = Math.ceil(N / CONCURRENCY) * CRITICAL_PATH_CALLS * latency;
  // Each role's own limit of `concurrency` calls in flight bounds it too.
  const roleBound = (TURNS * latency * N) / CONCURRENCY;
  console.log('');
  console.log(`calls per conversation = ${TURNS} user + ${TURNS} system under test + ${REPEATS} judge = ${CALLS_PER_CONVERSATION}; calls = ${calls}`);
  console.log(`ideal = ⌈N / concurrency⌉ × critical path (${CRITICAL_PATH_CALLS} calls one after the other: ${TURNS} × (user → answer), then the ${REPEATS} repeats side by side) × latency = ⌈${N} / ${CONCURRENCY}⌉ × ${CRITICAL_PATH_CALLS} × ${latency} s = ${ideal.toFixed(2)} s`);
  console.log(`each role's own limit (${CONCURRENCY} in flight, ${TURNS} calls per conversation for the user and the system under test, ${REPEATS} for the judge) allows ${roleBound.toFixed(2)} s: not the bound`);
  console.log('');
  console.log('run      wall s   ideal s   ratio   CPU ms/call   CPU ms/conversation   main busy   peak RSS MB   server requests');
  const row = (label: string, r: RunResult, requests: number): void =>
    console.log(
      `${label.padEnd(7)}  ${(r.wallMs / 1000).toFixed(2).padStart(6)}  ${ideal.toFixed(2).padStart(8)}  ${(r.wallMs / 1000 / ideal).toFixed(3).padStart(6)}  ${(r.cpuMs / calls).toFixed(3).padStart(12)}  ${(r.cpuMs / N).toFixed(2).padStart(20)}  ${(r.eventLoopBusy * 100).toFixed(0).padStart(9)}%  ${r.maxRssMB.toFixed(0).padStart(12)}  ${String(requests).padStart(16)}`,
    );
  row('first', first, mid - start);
  row('second', second, end - mid);
  console.log('');
  for (const [label, r] of [['first', first], ['second', second]] as const) {
    console.log(`${label.padEnd(7)}  status ${r.status}  done ${r.done}  errors ${r.errors}  cached ${r.cached}  judged ${r.judged}  no_verdict ${r.noVerdict}  defect rate ${r.defectRate?.toFixed(3) ?? '—'}  mean turns ${r.meanTurns?.toFixed(2) ?? '—'}`);
  }
  console.log(`requests seen by the server: first run ${mid - start} (expected ${calls}), second run ${end - mid} (must be 0)`);
} finally {
  server.kill('SIGTERM');
  await once(server, 'close');
  rmSync(dir, { recursive: true, force: true });
}
