// `npm run bench:summaries`: summaries/alignment on the BBC articles (all 2,225 unless
// ASSAY_BENCH_LIMIT) × 2 models, summarizers and judge scripted on a loopback OpenAI-compatible
// server (in its own process, summaries-server-process.ts) at 50 ms latency, concurrency 64.
// Two runs of the same spec in fresh processes (summaries-run-once.ts) on one SQLite store: the
// first calls everything, the second must be answered from the cache (no request reaches the
// server). Prints wall time against the ideal, CPU per summary and peak RSS. Figures, not
// assertions: see docs/benchmarks.md.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testDataDir } from '../testing/test-data.js';
import { firstLine } from './child-process.js';

const here = dirname(fileURLToPath(import.meta.url));
const LATENCY_MS = 50;
const CONCURRENCY = 64;
const MODELS = 2;
const K = Number(process.env['ASSAY_BENCH_COVERAGE_QUESTIONS'] ?? 5);
const limitEnv = process.env['ASSAY_BENCH_LIMIT'];
const limit = limitEnv ? Number(limitEnv) : undefined;
if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) throw new Error(`ASSAY_BENCH_LIMIT must be a positive integer, got ${limitEnv}`);
const dataDir = testDataDir();

/** Calls one summary makes: the summary, claims, verdicts (one batch call), and with coverage: questions + two answers. */
const CALLS_PER_SUMMARY = 3 + (K > 0 ? 3 : 0);
/** Of those, the judge's. */
const JUDGE_CALLS_PER_SUMMARY = CALLS_PER_SUMMARY - 1;
/** Calls one after the other for one summary: summary → claims → max(verdicts, questions → answers). */
const CRITICAL_PATH_CALLS = 3 + (K > 0 ? 1 : 0);

interface RunResult {
  readonly run: string;
  readonly status: string;
  readonly wallMs: number;
  readonly setupMs: number;
  readonly cpuMs: number;
  readonly eventLoopBusy: number;
  readonly maxRssMB: number;
  readonly models: Record<string, { done: number; errors: number; cached: number; judged: number; noVerdict: number; metricErrors: number; judgeCalls: number; alignment: number | null; claimSupport: number | null; richness: number | null; coverage: number | null }>;
}

const server = spawn(process.execPath, [join(here, 'summaries-server-process.js'), String(LATENCY_MS)], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
const { url } = JSON.parse(await firstLine(server)) as { url: string };

interface ServerCounts {
  /** Requests received so far. */
  readonly requests: number;
  /** The judge's requests held by the server (arrived, not answered), integrated over time. */
  readonly judgeHeldMs: number;
  /** Sum over answered requests of how much later than the latency they were answered (the server's timer lag). */
  readonly lateMs: number;
  readonly answered: number;
}

/** What the server has counted so far. */
async function serverCounts(): Promise<ServerCounts> {
  server.send({ type: 'count' });
  for (;;) {
    const [message] = (await once(server, 'message')) as [ServerCounts & { type?: string }];
    if (message.type === 'count') return message;
  }
}

/** One run in a fresh process (so its CPU and peak RSS are its own). */
async function runOnce(dbPath: string): Promise<RunResult> {
  const args = [url, dataDir, dbPath, String(CONCURRENCY), String(K), ...(limit ? [String(limit)] : [])];
  const child = spawn(process.execPath, [join(here, 'summaries-run-once.js'), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const result = JSON.parse(await firstLine(child)) as RunResult;
  await once(child, 'close');
  return result;
}

const dir = mkdtempSync(join(tmpdir(), 'assay-bench-summaries-'));
const dbPath = join(dir, 'summaries.db');
try {
  console.log(`summaries/alignment on ${join(dataDir, 'bbc')}${limit ? ` (first ${limit} articles)` : ''} × ${MODELS} models (openai:writer-a, openai:writer-b), judge openai:judge, all scripted on a loopback server in its own process`);
  console.log(`latency ${LATENCY_MS} ms, concurrency ${CONCURRENCY}, coverage questions K = ${K}, SQLite store in a temp dir, call cache on`);
  const start = await serverCounts();
  const first = await runOnce(dbPath);
  const mid = await serverCounts();
  const second = await runOnce(dbPath);
  const end = await serverCounts();
  const [before, afterFirst, afterSecond] = [start.requests, mid.requests, end.requests];

  const n = Object.values(first.models).reduce((sum, m) => sum + m.done + m.errors, 0);
  const perModel = n / MODELS;
  const calls = CALLS_PER_SUMMARY * n;
  const latency = LATENCY_MS / 1000;
  // The issue's ideal: every call of every summary through one concurrency-64 limit.
  const ideal = (CALLS_PER_SUMMARY * latency * n) / CONCURRENCY;
  // What assay's own limits allow: each model under test and the judge has its own limit of
  // `concurrency` calls (and each model `concurrency` workers, one summary each at a time).
  const judgeBound = (JUDGE_CALLS_PER_SUMMARY * latency * n) / CONCURRENCY;
  const writerBound = (latency * perModel) / CONCURRENCY;
  const criticalPath = Math.ceil(perModel / CONCURRENCY) * CRITICAL_PATH_CALLS * latency;
  const assayBound = Math.max(judgeBound, writerBound, criticalPath);

  console.log('');
  console.log(`N = articles × models = ${perModel} × ${MODELS} = ${n} summaries`);
  console.log(`calls per summary = 1 summary + 1 claims + 1 verdicts${K > 0 ? ' + 3 coverage (questions, answers from the article, answers from the summary)' : ''} = ${CALLS_PER_SUMMARY}; calls = ${calls}`);
  console.log(`ideal (the target's) = calls per summary × latency × N / concurrency = ${CALLS_PER_SUMMARY} × ${latency} s × ${n} / ${CONCURRENCY} = ${ideal.toFixed(2)} s (every call through one limit of ${CONCURRENCY})`);
  console.log(`critical path of one summary = ${CRITICAL_PATH_CALLS} calls one after the other (summary → claims → max(verdicts, questions → answers)): ⌈${perModel} / ${CONCURRENCY}⌉ × ${CRITICAL_PATH_CALLS} × ${latency} s = ${criticalPath.toFixed(2)} s with ${CONCURRENCY} workers per model`);
  console.log(`assay's limits are per model (each writer and the judge: ${CONCURRENCY} calls in flight each): the judge's ${JUDGE_CALLS_PER_SUMMARY} calls per summary bound the run at ${JUDGE_CALLS_PER_SUMMARY} × ${latency} s × ${n} / ${CONCURRENCY} = ${judgeBound.toFixed(2)} s`);
  console.log(`the target uses the concurrency-bound ideal (${ideal.toFixed(2)} s); the tightest bound under assay's per-model limits is max(judge ${judgeBound.toFixed(2)}, writers ${writerBound.toFixed(2)}, critical path ${criticalPath.toFixed(2)}) = ${assayBound.toFixed(2)} s`);
  console.log('');
  console.log('run      wall s   ideal s   ratio   ratio/assay bound   setup s   CPU ms/summary   main busy   peak RSS MB   server requests');
  const row = (label: string, r: RunResult, requests: number): void =>
    console.log(
      `${label.padEnd(7)}  ${(r.wallMs / 1000).toFixed(2).padStart(6)}  ${ideal.toFixed(2).padStart(8)}  ${(r.wallMs / 1000 / ideal).toFixed(3).padStart(6)}  ${(r.wallMs / 1000 / assayBound).toFixed(3).padStart(18)}  ${(r.setupMs / 1000).toFixed(2).padStart(8)}  ${(r.cpuMs / n).toFixed(3).padStart(15)}  ${(r.eventLoopBusy * 100).toFixed(0).padStart(9)}%  ${r.maxRssMB.toFixed(0).padStart(12)}  ${String(requests).padStart(16)}`,
    );
  row('first', first, afterFirst - before);
  row('second', second, afterSecond - afterFirst);
  console.log('');
  for (const [label, r] of [['first', first], ['second', second]] as const) {
    for (const [id, m] of Object.entries(r.models)) {
      const pct = (v: number | null): string => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);
      console.log(
        `${label.padEnd(7)}  ${id.padEnd(16)}  done ${m.done}  errors ${m.errors}  cached ${m.cached}  judged ${m.judged}  no_verdict ${m.noVerdict}  metric errors ${m.metricErrors}  judge calls ${m.judgeCalls}  alignment ${pct(m.alignment)}  claim support ${pct(m.claimSupport)}  richness ${m.richness?.toFixed(2) ?? '—'}  coverage ${pct(m.coverage)}`,
      );
    }
  }
  const allJudged = [first, second].every((r) => Object.values(r.models).every((m) => m.judged === perModel && m.noVerdict === 0 && m.metricErrors === 0 && m.errors === 0));
  const firstCalls = afterFirst - before;
  console.log('');
  console.log(`every summary judged (judged = N per model, no_verdict 0, errors 0) in both runs: ${allJudged ? 'yes' : 'NO'}`);
  // A summary answered from the cache in the first run (an article whose text another id already
  // has: the BBC set holds duplicates) makes none of its 6 calls; a judge call that one model's
  // summary shares with the other's (the coverage questions and the answers from the article see
  // only the article; identical summaries share every step) is answered from the cache when the
  // other's call has finished by then.
  const cachedSummaries = Object.values(first.models).reduce((sum, m) => sum + m.cached, 0);
  console.log(
    `requests seen by the server: first run ${firstCalls} (at most ${CALLS_PER_SUMMARY} × (N − ${cachedSummaries} summaries answered from the cache) = ${CALLS_PER_SUMMARY * (n - cachedSummaries)}; fewer where the two models' judge calls coincide), second run ${afterSecond - afterFirst} (must be 0)`,
  );
  const held = (mid.judgeHeldMs - start.judgeHeldMs) / first.wallMs;
  const late = (mid.lateMs - start.lateMs) / Math.max(1, mid.answered - start.answered);
  console.log(
    `first run, at the server: the judge's requests held ${held.toFixed(1)} on average of the ${CONCURRENCY} the judge may have in flight (${((held / CONCURRENCY) * 100).toFixed(0)}%; the rest of each judge call is the client's work and the loopback), answered ${late.toFixed(1)} ms after the latency on average (the server's timer lag)`,
  );
  console.log(
    `targets: ratio ≤ 1.3 (got ${(first.wallMs / 1000 / ideal).toFixed(3)}), peak RSS < 250 MB (got ${first.maxRssMB.toFixed(0)}; second run ${second.maxRssMB.toFixed(0)}), second run makes no call (${afterSecond - afterFirst === 0 ? 'met' : 'NOT met'})`,
  );
} finally {
  server.kill('SIGTERM');
  await once(server, 'close');
  rmSync(dir, { recursive: true, force: true });
}
