// `npm run bench`: MetaTool samples against a loopback OpenAI-compatible server (in its own process)
// at 50 ms latency and concurrency 64. Prints wall time against the ideal (N × latency / concurrency),
// CPU per sample and peak RSS for growing N. Figures, not assertions: see docs/benchmarks.md.
import { median } from '../metrics/median.js';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testDataDir } from '../testing/test-data.js';
import { MEMORY_FLAGS } from '../core/v8-memory-flags.js';
import { firstLine, measureInChild } from './child-process.js';

const here = dirname(fileURLToPath(import.meta.url));
const LATENCY_MS = 50;
const CONCURRENCY = 64;
const sizes = (process.env['ASSAY_BENCH_SIZES'] ?? '2500,5000,10000').split(',').map(Number);
// Wall-time ratios move by a few hundredths run to run on a 2-core machine: with repeats, each N
// runs that many times and the targets are read from the medians.
const repeats = Math.max(1, Number(process.env['ASSAY_BENCH_REPEATS'] ?? 1) || 1);
const dataDir = testDataDir();

/** N × latency / concurrency, in seconds: the wall time with no overhead at all. */
const idealSeconds = (samples: number): number => (samples * LATENCY_MS) / CONCURRENCY / 1000;

const server = spawn(process.execPath, [join(here, 'fake-server-process.js'), String(LATENCY_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
const { url } = JSON.parse(await firstLine(server)) as { url: string };

console.log(`MetaTool (metatool/similar) against a loopback server: latency ${LATENCY_MS} ms, concurrency ${CONCURRENCY}, SQLite store, call cache on`);
console.log('samples   wall s   ideal s   ratio   setup s   calls s   calls/ideal   CPU ms/sample   main busy   peak RSS MB   errors');
interface Row {
  readonly samples: number;
  readonly ratio: number;
  readonly cpuPerSample: number;
  readonly rss: number;
}
const rows: Row[] = [];
for (const n of sizes) {
  const runs: Row[] = [];
  for (let r = 0; r < repeats; r++) runs.push(await runOnce(n));
  if (repeats > 1) {
    const row = { samples: runs[0]?.samples ?? n, ratio: median(runs.map((x) => x.ratio)), cpuPerSample: median(runs.map((x) => x.cpuPerSample)), rss: median(runs.map((x) => x.rss)) };
    console.log(`${'median'.padStart(7)}  ${''.padStart(7)}  ${''.padStart(8)}  ${row.ratio.toFixed(3).padStart(6)}  ${''.padStart(8)}  ${''.padStart(8)}  ${''.padStart(12)}  ${row.cpuPerSample.toFixed(3).padStart(14)}  ${''.padStart(9)}  ${row.rss.toFixed(0).padStart(12)}`);
    rows.push(row);
  } else if (runs[0]) {
    rows.push(runs[0]);
  }
}

/** One measured run of `n` samples in a fresh process (run-once.ts); prints its row. */
async function runOnce(n: number): Promise<Row> {
  const result = await measureInChild<{ samples: number; errors: number; wallMs: number; setupMs: number; callsMs: number; cpuMs: number; eventLoopBusy: number; maxRssMB: number }>(
    'run-once.js',
    [String(n), url, dataDir, String(CONCURRENCY)],
    MEMORY_FLAGS,
  );
  const ideal = idealSeconds(result.samples);
  const wall = result.wallMs / 1000;
  const row = { samples: result.samples, ratio: wall / ideal, cpuPerSample: result.cpuMs / result.samples, rss: result.maxRssMB };
  console.log(
    `${String(result.samples).padStart(7)}  ${wall.toFixed(2).padStart(7)}  ${ideal.toFixed(2).padStart(8)}  ${row.ratio.toFixed(3).padStart(6)}  ${(result.setupMs / 1000).toFixed(2).padStart(8)}  ${(result.callsMs / 1000).toFixed(2).padStart(8)}  ${(result.callsMs / 1000 / ideal).toFixed(3).padStart(12)}  ${row.cpuPerSample.toFixed(3).padStart(14)}  ${(result.eventLoopBusy * 100).toFixed(0).padStart(8)}%  ${row.rss.toFixed(0).padStart(12)}  ${String(result.errors).padStart(7)}`,
  );
  return row;
}
// The floor: the same requests through less and less of assay (floor-once.ts), at the largest N.
const floorSamples = sizes[sizes.length - 1] ?? 0;
let httpFloorRatio: number | undefined;
if (process.env['ASSAY_BENCH_FLOOR'] !== '0' && floorSamples > 0) {
  console.log('');
  console.log(`floor on this machine, ${floorSamples} samples, same server and concurrency (what the ratio cannot go below):`);
  console.log('layer                                           wall s   ratio   CPU ms/sample   main busy   errors');
  const label: Record<string, string> = {
    http: 'undici alone (no assay code)',
    provider: '+ OpenAI provider (wire format, parsing)',
    engine: '+ middleware and scoring (no store writes)',
  };
  for (const layer of ['http', 'provider', 'engine']) {
    const result = await measureInChild<{ samples: number; errors: number; wallMs: number; cpuMs: number; eventLoopBusy: number }>('floor-once.js', [layer, String(floorSamples), url, dataDir, String(CONCURRENCY)]);
    const ratio = result.wallMs / 1000 / idealSeconds(result.samples);
    if (layer === 'http') httpFloorRatio = ratio;
    console.log(
      `${(label[layer] ?? layer).padEnd(46)}  ${(result.wallMs / 1000).toFixed(2).padStart(6)}  ${ratio.toFixed(3).padStart(6)}  ${(result.cpuMs / result.samples).toFixed(3).padStart(14)}  ${(result.eventLoopBusy * 100).toFixed(0).padStart(8)}%  ${String(result.errors).padStart(7)}`,
    );
  }
}
server.kill('SIGTERM');
await once(server, 'close');
const last = rows[rows.length - 1];
if (last) {
  console.log('');
  if (repeats > 1) console.log(`(medians of ${repeats} runs per size)`);
  console.log(`targets: ratio ≤ 1.15 (got ${last.ratio.toFixed(3)}), CPU < 0.5 ms/sample (got ${last.cpuPerSample.toFixed(3)}), peak RSS < 200 MB (got ${last.rss.toFixed(0)}) and flat as N grows (${rows.map((r) => r.rss.toFixed(0)).join(' → ')} MB)`);
  if (httpFloorRatio !== undefined) console.log(`floor: undici alone reaches ratio ${httpFloorRatio.toFixed(3)} here; assay's own share of the ratio is ${(last.ratio - httpFloorRatio).toFixed(3)}`);
  console.log('reference: a widely used TypeScript eval runner needs ~10 ms CPU/sample and 450 MB on 2,000 such samples (ENVIRONMENT.md)');
}
