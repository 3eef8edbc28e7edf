// Reads the file `timeline-preload.ts` wrote for one CLI run and prints its timeline (docs/benchmarks.md
// "Timeline of one run"): start-up to the first request, the requests in flight while the run
// calls (time-weighted, so every moment counts once, however long), the slot time lost against
// `concurrency` always in flight, the event loop's delay, and the last answer to the exit.
// Usage: node dist/src/perf/timeline-report.js FILE [concurrency=64] [spawnEpochMs] [goneEpochMs]
import { readFileSync } from 'node:fs';

interface Timeline {
  readonly timeOrigin: number;
  readonly preloaded: number;
  readonly exit: number;
  readonly created: number[];
  readonly completed: number[];
  readonly durations: number[];
  readonly delays: [number, number, number, number][];
  readonly marks: [string, number][];
}

const [file, concurrencyArg, spawnArg, goneArg] = process.argv.slice(2);
if (!file) throw new Error('usage: timeline-report FILE [concurrency] [spawnEpochMs] [goneEpochMs]');
const t = JSON.parse(readFileSync(file, 'utf8')) as Timeline;
const concurrency = Number(concurrencyArg ?? 64);
const ms = (x: number): string => `${x.toFixed(0)} ms`;
const first = t.created[0] ?? Number.NaN;
const last = t.completed.at(-1) ?? Number.NaN;

// Every create is +1, every completion −1: the count in flight between two events is exact.
const events = [...t.created.map((at) => [at, 1] as const), ...t.completed.map((at) => [at, -1] as const)].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
let inFlight = 0;
let previous = first;
let weighted = 0;
let lostSlotMs = 0;
let atFull = 0;
let firstFull = Number.NaN;
const shares = new Map<string, number>();
const bucket = (n: number): string => (n >= concurrency ? `${concurrency}` : n >= concurrency - 4 ? `${concurrency - 4}–${concurrency - 1}` : n >= concurrency / 2 ? `${concurrency / 2}–${concurrency - 5}` : `<${concurrency / 2}`);
for (const [at, step] of events) {
  const span = at - previous;
  weighted += inFlight * span;
  lostSlotMs += Math.max(0, concurrency - inFlight) * span;
  if (inFlight >= concurrency) atFull += span;
  shares.set(bucket(inFlight), (shares.get(bucket(inFlight)) ?? 0) + span);
  inFlight += step;
  if (inFlight >= concurrency && Number.isNaN(firstFull)) firstFull = at;
  previous = at;
}
const calling = last - first;
const lines: string[] = [];
if (spawnArg) lines.push(`spawn → time origin            ${ms(t.timeOrigin - Number(spawnArg))}`);
lines.push(`time origin → preload          ${ms(t.preloaded)}`);
for (const [name, at] of t.marks) lines.push(`mark ${name.padEnd(26)}${ms(at)}`);
lines.push(`time origin → first request    ${ms(first)}`);
lines.push(`first request → ${concurrency} in flight   ${ms(firstFull - first)}`);
lines.push(`first request → last answer    ${ms(calling)} (${t.created.length} requests; ideal at ${concurrency} in flight and the mean round trip: ${ms((t.created.length / concurrency) * mean(t.durations))})`);
lines.push(`  in flight, time-weighted mean ${(weighted / calling).toFixed(1)}; at ${concurrency}: ${((100 * atFull) / calling).toFixed(1)}% of the time`);
lines.push(`  share of time by count in flight: ${[...shares].sort().map(([k, v]) => `${k}: ${((100 * v) / calling).toFixed(1)}%`).join(', ')}`);
lines.push(`  slot time lost (${concurrency} − in flight, integrated): ${ms(lostSlotMs)} = ${ms(lostSlotMs / concurrency)} of wall`);
lines.push(`  HTTP round trip: mean ${mean(t.durations).toFixed(1)} ms, p50 ${quantile(t.durations, 0.5).toFixed(1)}, p99 ${quantile(t.durations, 0.99).toFixed(1)}`);
for (const [label, from, to] of [['first 1 s', first, first + 1000], ['middle', first + 1000, last - 1000], ['last 1 s', last - 1000, last]] as const) {
  const answers = t.completed.filter((at) => at > from && at <= to).length;
  lines.push(`  ${label.padEnd(10)} ${((answers * 1000) / (to - from)).toFixed(0)} answers/s`);
}
const during = t.delays.filter(([at]) => at <= last + 100);
lines.push(`event loop delay while calling (${during.length} windows of 100 ms): mean of means ${mean(during.map((d) => d[1])).toFixed(2)} ms, median p99 ${quantile(during.map((d) => d[2]), 0.5).toFixed(1)} ms, worst max ${Math.max(...during.map((d) => d[3])).toFixed(1)} ms`);
lines.push(`last answer → exit event       ${ms(t.exit - last)}`);
if (goneArg) lines.push(`exit event → process gone      ${ms(Number(goneArg) - (t.timeOrigin + t.exit))}`);
if (spawnArg && goneArg) lines.push(`spawn → process gone (wall)    ${ms(Number(goneArg) - Number(spawnArg))}`);
process.stdout.write(`${lines.join('\n')}\n`);

function mean(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
}

function quantile(xs: readonly number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}
