// Loaded with `node --import` into an assay CLI process to draw the timeline of one run (issue 29,
// docs/benchmarks.md "Timeline of one run"): at exit it writes to ASSAY_TIMELINE_FILE, in ms since
// the process's time origin, when each HTTP request of the run was created, when it was written,
// and when its answer
// was complete (undici's diagnostics channels, so in-flight counts are exact, not sampled), the
// event loop's delay during the run (perf_hooks, reset every 100 ms), the performance marks the
// process made, and when the `exit` event came. `timeline-report.ts` reads the file.
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

const file = process.env['ASSAY_TIMELINE_FILE'];
if (file) {
  const created: number[] = [];
  const completed: number[] = [];
  /** Per 100 ms window while requests are made: [window start, mean, p99, max] of the loop's delay, ms. */
  const delays: [number, number, number, number][] = [];
  const histogram = monitorEventLoopDelay({ resolution: 2 });
  let sampler: NodeJS.Timeout | undefined;
  const sample = (): void => {
    if (histogram.count > 0) delays.push([performance.now(), histogram.mean / 1e6, histogram.percentile(99) / 1e6, histogram.max / 1e6]);
    histogram.reset();
  };
  /** Each request's HTTP round trip, create to complete, ms. */
  const durations: number[] = [];
  const startedAt = new WeakMap<object, number>();
  subscribe('undici:request:create', (message) => {
    if (created.length === 0) {
      histogram.enable();
      sampler = setInterval(sample, 100).unref();
    }
    const now = performance.now();
    created.push(now);
    startedAt.set((message as { request: object }).request, now);
  });
  /** When each request's headers went on the wire (it may wait in undici's queue after it is created). */
  const sent: number[] = [];
  subscribe('undici:client:sendHeaders', () => void sent.push(performance.now()));
  const done = (message: unknown): void => {
    const now = performance.now();
    completed.push(now);
    const started = startedAt.get((message as { request: object }).request);
    if (started !== undefined) durations.push(now - started);
  };
  subscribe('undici:request:trailers', done);
  subscribe('undici:request:error', done);
  const preloaded = performance.now();
  process.on('exit', () => {
    const exit = performance.now();
    if (sampler) clearInterval(sampler);
    sample();
    const marks = performance.getEntriesByType('mark').map((m) => [m.name, m.startTime]);
    writeFileSync(file, JSON.stringify({ timeOrigin: performance.timeOrigin, preloaded, exit, created, sent, completed, durations, delays, marks, usage: process.resourceUsage() }));
  });
}
