// `npm run bench:targets`: MetaTool samples through the `http` target and through the OpenAI provider,
// both wrapped in `Model`, against the same loopback OpenAI-compatible server (in its own process) at
// 50 ms latency and 64 in flight. Each path runs in a fresh process (targets-once.ts), interleaved
// A B A B so that a machine's drift hits both; prints wall and CPU per sample of each, their medians
// and the ratio http / openai (target: within 1.1×). Figures, not assertions: see docs/benchmarks.md.
import { once } from 'node:events';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { median } from '../metrics/median.js';
import { testDataDir } from '../testing/test-data.js';
import { firstLine, measureInChild, perfDir } from './child-process.js';

const LATENCY_MS = 50;
const CONCURRENCY = 64;
const samples = Number(process.env['ASSAY_BENCH_SAMPLES'] ?? 10_000);
const repeats = Math.max(1, Number(process.env['ASSAY_BENCH_REPEATS'] ?? 3) || 3);
const dataDir = testDataDir();
const idealSeconds = (n: number): number => (n * LATENCY_MS) / CONCURRENCY / 1000;

interface Measured {
  readonly path: string;
  readonly samples: number;
  readonly errors: number;
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly eventLoopBusy: number;
}

const server = spawn(process.execPath, [join(perfDir, 'fake-server-process.js'), String(LATENCY_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
const { url } = JSON.parse(await firstLine(server)) as { url: string };

console.log(`MetaTool (metatool/similar), ${samples} samples through Model against a loopback OpenAI-compatible server: latency ${LATENCY_MS} ms, ${CONCURRENCY} in flight, ${repeats} runs of each path, interleaved`);
console.log('path      run   wall s   ideal s   wall/ideal   CPU ms/sample   main busy   errors');
const runs: Record<'openai' | 'http', Measured[]> = { openai: [], http: [] };
for (let r = 1; r <= repeats; r++) {
  for (const path of ['openai', 'http'] as const) {
    const result = await measureInChild<Measured>('targets-once.js', [path, String(samples), url, dataDir, String(CONCURRENCY)]);
    runs[path].push(result);
    const wall = result.wallMs / 1000;
    console.log(
      `${path.padEnd(8)}  ${String(r).padStart(3)}  ${wall.toFixed(2).padStart(7)}  ${idealSeconds(result.samples).toFixed(2).padStart(8)}  ${(wall / idealSeconds(result.samples)).toFixed(3).padStart(11)}  ${(result.cpuMs / result.samples).toFixed(3).padStart(14)}  ${(result.eventLoopBusy * 100).toFixed(0).padStart(8)}%  ${String(result.errors).padStart(7)}`,
    );
  }
}
server.kill('SIGTERM');
await once(server, 'close');

const wallPerSample = (path: 'openai' | 'http'): number => median(runs[path].map((m) => m.wallMs / m.samples));
const cpuPerSample = (path: 'openai' | 'http'): number => median(runs[path].map((m) => m.cpuMs / m.samples));
console.log('');
console.log(`medians of ${repeats}        wall ms/sample   CPU ms/sample`);
for (const path of ['openai', 'http'] as const) console.log(`${path.padEnd(20)}  ${wallPerSample(path).toFixed(4).padStart(14)}  ${cpuPerSample(path).toFixed(4).padStart(14)}`);
console.log(`ratio http / openai   ${(wallPerSample('http') / wallPerSample('openai')).toFixed(3).padStart(14)}  ${(cpuPerSample('http') / cpuPerSample('openai')).toFixed(3).padStart(14)}   (target: within 1.1×)`);
