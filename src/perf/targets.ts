// `npm run bench:targets [-- --limit N]`: the path a user takes to measure an application — the CLI
// started as a process, `node bin/assay.js run metatool/similar --config FILE -m NAME` — once with
// NAME an `http` target and once with NAME the OpenAI provider, both declared in one config file
// and both calling the same loopback OpenAI-compatible server (in its own process, 50 ms latency,
// 64 in flight). Each run is a fresh process on a fresh database, measured from outside (wall from
// spawn to exit; CPU of the whole process through cli-usage-preload.ts: start-up, the run, its
// store and summary), the paths interleaved A B A B so a machine's drift hits both. Prints wall
// and CPU per sample of each, their medians and the ratio http / openai (target: within 1.1×);
// also each path's fixed cost (a one-sample run: start-up, the task's data, the store) and the CPU
// per sample without it, which a small --limit would otherwise be mostly made of.
// Figures, not assertions: see docs/benchmarks.md.
//
// Arguments: --limit N (samples, default 10000). Environment: ASSAY_BENCH_REPEATS (runs of each
// path, default 3), ASSAY_DATA_DIR (MetaTool's data, as for the tests).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median } from '../metrics/median.js';
import { testDataDir } from '../testing/test-data.js';
import { firstLine, perfDir } from './child-process.js';
import { measureCli, type CliMeasurement } from './measure-cli.js';

const LATENCY_MS = 50;
const CONCURRENCY = 64;

/** `--limit N` (or `--limit=N`) from the command line, else 10,000. */
function limitArgument(argv: readonly string[]): number {
  const at = argv.findIndex((arg) => arg === '--limit' || arg.startsWith('--limit='));
  if (at === -1) return 10_000;
  const text = argv[at]?.includes('=') ? argv[at]?.split('=')[1] : argv[at + 1];
  const value = Number(text);
  if (!(Number.isInteger(value) && value > 0)) {
    console.error(`--limit must be a positive integer, got ${String(text)}`);
    process.exit(2);
  }
  return value;
}

const samples = limitArgument(process.argv.slice(2));
const repeats = Math.max(1, Number(process.env['ASSAY_BENCH_REPEATS'] ?? 3) || 3);
const dataDir = testDataDir();
const tree = resolve(perfDir, '..', '..', '..');
const idealSeconds = (samples * LATENCY_MS) / CONCURRENCY / 1000;

/** The chat-completions body the OpenAI provider sends for these requests, as a target's template writes it. */
const OPENAI_SHAPED_BODY = '{"model": "bench-model", "messages": {{ messages | tojson }}, "temperature": {{ settings.temperature | tojson }}}';

/** The config file declaring both paths; the server's URL is known once it has started. */
function configText(url: string): string {
  return [
    'models:',
    '  openai-path:',
    '    provider: openai',
    '    model: bench-model',
    `    baseUrl: ${url}`,
    '  http-path:',
    '    http:',
    `      url: ${url}/chat/completions`,
    `      body: '${OPENAI_SHAPED_BODY}'`,
    '      output: choices[0].message.content',
    '      usage: usage',
    '',
  ].join('\n');
}

const PATHS = ['openai', 'http'] as const;
type Path = (typeof PATHS)[number];

const work = mkdtempSync(join(tmpdir(), 'assay-bench-targets-'));
const server = spawn(process.execPath, [join(perfDir, 'fake-server-process.js'), String(LATENCY_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
try {
  const { url } = JSON.parse(await firstLine(server)) as { url: string };
  const config = join(work, 'assay.yaml');
  writeFileSync(config, configText(url));
  const argsFor = (count: number) => (path: Path, db: string): string[] =>
    ['run', 'metatool/similar', '--config', config, '-m', `${path}-path`, '--per-tool', String(Math.ceil(count / 190)), '--limit', String(count), '--concurrency', String(CONCURRENCY), '--no-cache', '--db', db, '--json'];
  const args = argsFor(samples);
  const env = { ASSAY_DATA_DIR: dataDir, ASSAY_CONFIG: '' };

  // The fixed cost of a run (start-up, loading the task's data, opening the store, the summary):
  // one sample, once per path, so the per-sample figures below can be read without it.
  const fixed: Record<Path, CliMeasurement> = {
    openai: await measureCli(tree, argsFor(1)('openai', join(work, 'openai-fixed.db')), env, work),
    http: await measureCli(tree, argsFor(1)('http', join(work, 'http-fixed.db')), env, work),
  };
  for (const path of PATHS) {
    const m = fixed[path];
    console.log(`fixed cost, ${path}: one sample: wall ${(m.wallMs / 1000).toFixed(2)} s, CPU ${(m.cpuMs / 1000).toFixed(2)} s (exit ${String(m.exitCode)})`);
  }

  console.log(`MetaTool (metatool/similar), ${samples} samples: the CLI as a process, ${args('openai', '<fresh>.db').join(' ')} (and -m http-path)`);
  console.log(`loopback OpenAI-compatible server in its own process: latency ${LATENCY_MS} ms, ${CONCURRENCY} in flight; ${repeats} runs of each path, interleaved`);
  console.log('path      run   wall s   ideal s   wall/ideal   CPU ms/sample   peak RSS MB   exit');
  const runs: Record<Path, CliMeasurement[]> = { openai: [], http: [] };
  for (let r = 1; r <= repeats; r++) {
    for (const path of PATHS) {
      const result = await measureCli(tree, args(path, join(work, `${path}-${r}.db`)), env, work);
      runs[path].push(result);
      const wall = result.wallMs / 1000;
      console.log(
        `${path.padEnd(8)}  ${String(r).padStart(3)}  ${wall.toFixed(2).padStart(7)}  ${idealSeconds.toFixed(2).padStart(8)}  ${(wall / idealSeconds).toFixed(3).padStart(11)}  ${(result.cpuMs / samples).toFixed(3).padStart(14)}  ${result.maxRssMB.toFixed(0).padStart(12)}  ${String(result.exitCode).padStart(5)}`,
      );
      if (result.exitCode !== 0) console.log(`  exited ${result.exitCode}: ${result.stderrTail.replace(/\n/g, ' | ')}`);
    }
  }
  const failed = PATHS.some((path) => runs[path].some((m) => m.exitCode !== 0));
  if (failed) {
    console.log('\n(no medians: a failed run is not a figure)');
    process.exitCode = 1;
  } else {
    const wallPerSample = (path: Path): number => median(runs[path].map((m) => m.wallMs / samples));
    const cpuPerSample = (path: Path): number => median(runs[path].map((m) => m.cpuMs / samples));
    // The same CPU less the path's fixed cost (its one-sample run), over the samples after the first.
    const marginalCpu = (path: Path): number => median(runs[path].map((m) => (m.cpuMs - fixed[path].cpuMs) / Math.max(1, samples - 1)));
    console.log('');
    console.log(`medians of ${repeats}        wall ms/sample   CPU ms/sample   CPU ms/sample less the fixed cost`);
    for (const path of PATHS) console.log(`${path.padEnd(20)}  ${wallPerSample(path).toFixed(4).padStart(14)}  ${cpuPerSample(path).toFixed(4).padStart(14)}  ${marginalCpu(path).toFixed(4).padStart(14)}`);
    console.log(`ratio http / openai   ${(wallPerSample('http') / wallPerSample('openai')).toFixed(3).padStart(14)}  ${(cpuPerSample('http') / cpuPerSample('openai')).toFixed(3).padStart(14)}  ${(marginalCpu('http') / marginalCpu('openai')).toFixed(3).padStart(14)}   (target: within 1.1×)`);
  }
} finally {
  server.kill('SIGTERM');
  await once(server, 'close');
  rmSync(work, { recursive: true, force: true });
}
