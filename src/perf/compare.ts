// `npm run bench:compare -- <git-ref>`: the current checkout against another commit, measured the
// way a user runs assay — the CLI started as a process — interleaved A B A B so that a machine
// getting busier or quieter loads both alike. The ref is built in a temporary worktree with this
// checkout's node_modules. Each case runs against the same loopback server (in its own process,
// 50 ms latency); each figure is printed per tree with the ratio current/ref of every pair, its
// median and spread. The floor (undici alone on the same server, then with the provider, then with
// the middleware and scoring) is printed beside MetaTool's figures, its CPU both in its loop and
// for its whole process, so a slow machine reads as a slow machine and the store's share shows.
// Figures, not assertions: docs/benchmarks.md.
//
// Environment: ASSAY_BENCH_PAIRS (A B pairs per case, default 2), ASSAY_BENCH_SAMPLES (MetaTool
// samples, default 10000), ASSAY_BENCH_ARTICLES (summaries: BBC articles × 2 models, default 300),
// ASSAY_BENCH_N (harm personas, default 300), ASSAY_BENCH_CASES (default metatool,summaries,harm;
// `queue` adds MetaTool's run on the queue path with one worker, which needs PostgreSQL and Redis:
// ASSAY_TEST_POSTGRES_URL, ASSAY_TEST_REDIS_URL, else the machine's own; `instructions` adds
// MetaTool's run under valgrind's callgrind at ASSAY_BENCH_INSTRUCTION_SAMPLES, default 2000, and
// a tenth of it: instructions per sample and the fixed part, counts a busy machine hardly moves).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median } from '../metrics/median.js';
import { ScratchSchemas } from '../store/postgres/test-support/scratch-schemas.js';
import { ScratchQueues, TEST_REDIS_URL } from '../queue/test-support/scratch-queues.js';
import { testDataDir } from '../testing/test-data.js';
import { firstLine, measureInChildWithUsage, perfDir } from './child-process.js';
import { writeHarmResource } from './harm-resource.js';
import { measureCli, type CliMeasurement } from './measure-cli.js';
import { measureInstructions, type InstructionCount } from './measure-instructions.js';
import { measureQueued } from './measure-queued.js';
import { buildRefTree } from './ref-tree.js';

const LATENCY_MS = 50;
const CONCURRENCY = 64;
const REDIS_URL = TEST_REDIS_URL;
/** The floor's layers (`floor-once.ts`), each adding a part of assay to the one before. */
const FLOOR_LAYERS = [
  ['http', 'undici alone (no assay code)'],
  ['provider', '+ OpenAI provider (wire format, parsing)'],
  ['engine', '+ middleware and scoring (no store writes)'],
] as const;
const ref = process.argv[2];
if (!ref) {
  console.error('usage: npm run bench:compare -- <git-ref>   (e.g. main~5, 8ac1d60)');
  process.exit(2);
}
const positive = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!(Number.isInteger(value) && value > 0)) {
    console.error(`${name} must be a positive integer, got ${process.env[name]}`);
    process.exit(2);
  }
  return value;
};
const pairs = positive('ASSAY_BENCH_PAIRS', 2);
const samples = positive('ASSAY_BENCH_SAMPLES', 10_000);
const articles = positive('ASSAY_BENCH_ARTICLES', 300);
const personas = positive('ASSAY_BENCH_N', 300);
const instructionSamples = positive('ASSAY_BENCH_INSTRUCTION_SAMPLES', 2000);
const cases = (process.env['ASSAY_BENCH_CASES'] ?? 'metatool,summaries,harm').split(',');
const dataDir = testDataDir();
const currentTree = resolve(perfDir, '..', '..', '..');

interface BenchCase {
  readonly name: string;
  /** The server script of this folder that answers every role. */
  readonly server: string;
  /** What one unit of CPU time is counted per. */
  readonly unit: string;
  readonly unitPlural: string;
  readonly units: number;
  /** The command's arguments, given the server's URL, a fresh database (a path; a PostgreSQL URL for a queued case) and, queued, the queue's name. */
  args(url: string, db: string, queue: string): string[];
  /** The wall time with no overhead at all, in seconds. */
  readonly idealSeconds?: number;
  /** Whether the floor's layers are measured and printed under this case. */
  readonly floor?: boolean;
  /** A run on the queue path: the worker's arguments (the command's are the submitter's), measured with it (`measure-queued.ts`). */
  worker?(url: string, db: string, queue: string): string[];
  /** Counted under callgrind at a tenth of `units` and at `units` (`compareInstructions`), not timed. */
  readonly callgrind?: boolean;
}

/** MetaTool's command of `n` samples against the server at `url`, stored in `db`. */
const metatoolArgs = (n: number, url: string, db: string): string[] => ['run', 'metatool/similar', '--per-tool', '53', '--limit', String(n), '-m', 'openai:mock-model', '--concurrency', String(CONCURRENCY), '--no-cache', '--base-url', url, '--db', db, '--json'];

const work = mkdtempSync(join(tmpdir(), 'assay-bench-compare-'));
const harmResource = join(work, 'harm-resource');
writeHarmResource(harmResource, personas, 5);

const allCases: BenchCase[] = [
  {
    name: 'metatool',
    server: 'fake-server-process.js',
    unit: 'sample',
    unitPlural: 'samples',
    units: samples,
    idealSeconds: (samples * LATENCY_MS) / CONCURRENCY / 1000,
    floor: true,
    args: (url, db) => metatoolArgs(samples, url, db),
  },
  {
    name: 'instructions',
    server: 'fake-server-process.js',
    unit: 'sample',
    unitPlural: 'samples under callgrind',
    units: instructionSamples,
    callgrind: true,
    args: (url, db) => metatoolArgs(instructionSamples, url, db),
  },
  {
    name: 'queue',
    server: 'fake-server-process.js',
    unit: 'sample',
    unitPlural: 'samples on the queue path, one worker',
    units: samples,
    idealSeconds: (samples * LATENCY_MS) / CONCURRENCY / 1000,
    // The model's calls are the worker's, at its own endpoint: the submitter records and follows the run.
    args: (_url, db, queue) => ['run', 'metatool/similar', '--per-tool', '53', '--limit', String(samples), '-m', 'openai:mock-model', '--concurrency', String(CONCURRENCY), '--no-cache', '--queue', REDIS_URL, '--queue-name', queue, '--db', db, '--json'],
    worker: (url, db, queue) => ['worker', '--queue', REDIS_URL, '--queue-name', queue, '--db', db, '--base-url', url, '--concurrency', String(CONCURRENCY)],
  },
  {
    name: 'summaries',
    server: 'summaries-server-process.js',
    unit: 'summary',
    unitPlural: 'summaries',
    units: articles * 2,
    args: (url, db) => ['run', 'summaries/alignment', '--articles', join(dataDir, 'bbc'), '--limit', String(articles), '-m', 'openai:writer-a', '-m', 'openai:writer-b', '--judge', 'openai:judge', '--concurrency', String(CONCURRENCY), '--base-url', url, '--db', db, '--json'],
  },
  {
    name: 'harm',
    server: 'harm-server-process.js',
    unit: 'conversation',
    unitPlural: 'conversations',
    units: personas,
    args: (url, db) => ['run', `harm:${harmResource}`, '-m', 'openai:sut', '--user-model', 'openai:user', '--judge', 'openai:judge', '--judge-repeats', '5', '--concurrency', String(CONCURRENCY), '--base-url', url, '--db', db, '--json'],
  },
];

async function startServer(script: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(perfDir, script), String(LATENCY_MS)], { stdio: ['ignore', 'pipe', 'ignore', 'ipc'] });
  const { url } = JSON.parse(await firstLine(child)) as { url: string };
  return { url, child };
}

const figure = (values: readonly number[], digits: number): string => {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return '—';
  const m = median(finite);
  return finite.length > 1 ? `${m.toFixed(digits)} [${Math.min(...finite).toFixed(digits)}–${Math.max(...finite).toFixed(digits)}]` : m.toFixed(digits);
};

/** A figure of a case: its label, how it is read of one run, the digits it is printed with. */
type FigureRow<M> = readonly [label: string, read: (m: M) => number, digits: number];

/** Prints each figure of both trees' runs, and the ratio A/B of every pair (median [spread]), labels padded to `width`. */
function printFigures<M>(rows: readonly FigureRow<M>[], runs: readonly { readonly a: M; readonly b: M }[], width: number): void {
  console.log(`  ${'figure'.padEnd(width)} ${'A (current)'.padEnd(26)} ${'B (ref)'.padEnd(26)} A/B per pair → median [spread]`);
  for (const [label, read, digits] of rows) {
    console.log(`  ${label.padEnd(width)} ${figure(runs.map((r) => read(r.a)), digits).padEnd(26)} ${figure(runs.map((r) => read(r.b)), digits).padEnd(26)} ${figure(runs.map((r) => read(r.a) / read(r.b)), 3)}`);
  }
}

/** Says which runs of a case failed (a tree without the command, a crash); whether any did: the case then prints no ratio. */
function printFailures(failed: readonly { readonly side: string; readonly exitCode: number | null; readonly stderrTail: string }[]): boolean {
  for (const f of failed) console.log(`  ${f.side} exited ${f.exitCode}: ${f.stderrTail.replace(/\n/g, ' | ')}`);
  if (failed.length > 0) console.log('  (ratios of this case are left out: a failed run is not a figure)');
  return failed.length > 0;
}

/**
 * The `instructions` case: MetaTool's command under callgrind (`measure-instructions.ts`) at a
 * tenth of the case's samples and at all of them, on each tree, interleaved A B A B. Printed: the
 * instructions per sample (the difference of the two counts over the difference of the samples)
 * and the fixed part (what the command costs whatever its size: node's and assay's start-up, the
 * task's preparation, the summary's and the store's fixed costs), each with the ratio A/B per pair.
 */
async function compareInstructions(benchCase: BenchCase, url: string, env: Record<string, string>): Promise<void> {
  const small = Math.max(1, Math.round(benchCase.units / 10));
  const large = benchCase.units;
  const count = async (treePath: string, n: number, name: string): Promise<InstructionCount> => measureInstructions(join(treePath, 'bin', 'assay.js'), metatoolArgs(n, url, join(work, `${name}.db`)), env, work);
  type Counted = { total: number; perSample: number; fixed: number };
  const runs: { a: Counted; b: Counted }[] = [];
  const failures: (InstructionCount & { side: string })[] = [];
  for (let i = 0; i < pairs; i++) {
    const side = async (treePath: string, label: string): Promise<Counted> => {
      const counts = [await count(treePath, small, `instructions-${label}-${i}-small`), await count(treePath, large, `instructions-${label}-${i}-large`)];
      for (const c of counts) if (c.exitCode !== 0 || !Number.isFinite(c.instructions)) failures.push({ ...c, side: label });
      const [s, l] = counts.map((c) => c.instructions) as [number, number];
      const perSample = (l - s) / (large - small);
      return { total: l, perSample, fixed: s - perSample * small };
    };
    const a = await side(currentTree, 'A');
    const b = await side(tree.path, 'B');
    runs.push({ a, b });
  }
  console.log('');
  console.log(`${benchCase.name}: ${large} and ${small} ${benchCase.unitPlural} — valgrind --tool=callgrind node --single-threaded bin/assay.js ${benchCase.args('<server>', '<fresh>.db', '').join(' ')}`);
  if (printFailures(failures)) return;
  // The total is the steadiest figure; the two read from the difference of two counts carry both counts' noise.
  const rows: FigureRow<Counted>[] = [
    [`instructions at ${large} (M)`, (m) => m.total / 1e6, 0],
    ['instructions per sample (k)', (m) => m.perSample / 1e3, 1],
    ['fixed part (M instructions)', (m) => m.fixed / 1e6, 0],
  ];
  printFigures(rows, runs, 30);
  // The floor counted the same way, once: the same requests through less and less of assay.
  const current = median(runs.map((r) => r.a.perSample));
  console.log(`  floor, counted the same way (per request; the fixed part; A's instructions per sample against it):`);
  for (const [layer, label] of FLOOR_LAYERS) {
    const floorCount = (n: number): Promise<InstructionCount> => measureInstructions(join(perfDir, 'floor-once.js'), [layer, String(n), url, dataDir, String(CONCURRENCY)], env, work);
    const [s, l] = [await floorCount(small), await floorCount(large)];
    const failed = [s, l].find((c) => c.exitCode !== 0 || !Number.isFinite(c.instructions));
    if (failed) {
      console.log(`    ${label.padEnd(44)} not counted: exited ${failed.exitCode}: ${failed.stderrTail.replace(/\n/g, ' | ')}`);
      continue;
    }
    const perRequest = (l.instructions - s.instructions) / (large - small);
    console.log(`    ${label.padEnd(44)} ${(perRequest / 1e3).toFixed(1)} k per request, fixed ${((s.instructions - perRequest * small) / 1e6).toFixed(0)} M (A ${(current / perRequest).toFixed(2)}×)`);
  }
}

/** A run measured: a CLI command's figures, and a queued run's submitter's peak RSS beside its worker's. */
type Measured = CliMeasurement & { readonly submitterRssMB?: number };
/** The queued cases' PostgreSQL schemas, made as they are needed and dropped at the end. */
let schemas: ScratchSchemas | undefined;
/** Their queues, deleted at the end. */
let queues: ScratchQueues | undefined;
const tree = buildRefTree(currentTree, ref);
console.log(`bench:compare — current checkout (A) against ${ref} = ${tree.commit} (B), ${pairs} interleaved pair(s) per case, loopback server at ${LATENCY_MS} ms, concurrency ${CONCURRENCY}`);
try {
  for (const benchCase of allCases.filter((c) => cases.includes(c.name))) {
    const { url, child } = await startServer(benchCase.server);
    try {
      const runs: { a: Measured; b: Measured }[] = [];
      const env = { OPENAI_API_KEY: 'bench-key', ASSAY_DATA_DIR: dataDir };
      const measure = async (treePath: string, i: number, side: string): Promise<Measured> => {
        const worker = benchCase.worker?.bind(benchCase);
        if (!worker) return measureCli(treePath, benchCase.args(url, join(work, `${benchCase.name}-${side}-${i}.db`), ''), env, work);
        // A schema and a queue of its own for every run.
        schemas ??= new ScratchSchemas();
        const store = (await schemas.create()).url;
        queues ??= new ScratchQueues(REDIS_URL, 'bench-compare');
        const queue = queues.name(`${side}-${i}`);
        return measureQueued(treePath, { submit: (db, q) => benchCase.args(url, db, q), worker: (db, q) => worker(url, db, q) }, store, queue, env, work);
      };
      if (benchCase.callgrind) {
        await compareInstructions(benchCase, url, env);
        continue;
      }
      for (let i = 0; i < pairs; i++) {
        const a = await measure(currentTree, i, 'a');
        const b = await measure(tree.path, i, 'b');
        runs.push({ a, b });
      }
      console.log('');
      console.log(`${benchCase.name}: ${benchCase.units} ${benchCase.unitPlural} — ${benchCase.args('<server>', benchCase.worker ? '<fresh schema>' : '<fresh>.db', '<queue>').join(' ')}`);
      if (benchCase.worker) console.log(`  with ${benchCase.worker('<server>', '<fresh schema>', '<queue>').join(' ')} (CPU: both processes; peak RSS: the worker's)`);
      const failed = runs.flatMap(({ a, b }) => [{ ...a, side: 'A' }, { ...b, side: 'B' }]).filter((m) => m.exitCode !== 0);
      if (printFailures(failed)) continue;
      const rows: FigureRow<Measured>[] = [
        ['wall s', (m) => m.wallMs / 1000, 2],
        [`CPU ms/${benchCase.unit}`, (m) => m.cpuMs / benchCase.units, 3],
        ['peak RSS MB', (m) => m.maxRssMB, 0],
        ...(benchCase.worker ? [['submitter peak RSS MB', (m: Measured) => m.submitterRssMB ?? Number.NaN, 0] as const] : []),
      ];
      printFigures(rows, runs, 22);
      if (benchCase.idealSeconds !== undefined) {
        const ideal = benchCase.idealSeconds;
        console.log(`  ${'wall / ideal'.padEnd(22)} ${figure(runs.map((r) => r.a.wallMs / 1000 / ideal), 3).padEnd(26)} ${figure(runs.map((r) => r.b.wallMs / 1000 / ideal), 3).padEnd(26)} (ideal ${ideal.toFixed(2)} s = N × ${LATENCY_MS} ms / ${CONCURRENCY})`);
        if (!benchCase.floor) continue;
        const current = median(runs.map((r) => r.a.cpuMs / benchCase.units));
        console.log(`  floor on this machine, the same server and requests through less and less of assay (CPU in its loop; whole process, start-up and preparation included; A's CPU against the whole process's):`);
        for (const [layer, label] of FLOOR_LAYERS) {
          const { result, usage } = await measureInChildWithUsage<{ samples: number; wallMs: number; cpuMs: number }>('floor-once.js', [layer, String(benchCase.units), url, dataDir, String(CONCURRENCY)]);
          const whole = usage.cpuMs / result.samples;
          console.log(`    ${label.padEnd(44)} wall/ideal ${(result.wallMs / 1000 / ideal).toFixed(3)}, CPU ${(result.cpuMs / result.samples).toFixed(3)} ms/request in its loop, ${whole.toFixed(3)} whole (A ${(current / whole).toFixed(2)}×), peak RSS ${usage.maxRssMB.toFixed(0)} MB`);
        }
      }
    } finally {
      child.kill('SIGTERM');
      await once(child, 'close');
    }
  }
} finally {
  await schemas?.dropAll();
  await queues?.dropAll();
  tree.remove();
  rmSync(work, { recursive: true, force: true });
}
