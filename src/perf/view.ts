// `npm run bench:view`: `assay view` over a large run. For N = 10,000 and 100,000 samples
// (ASSAY_BENCH_VIEW_N="10000,100000"), the synthetic run of bench:report is written, a viewer
// started in-process over it, and measured: the run list's answer, the run's summaries (cold: the
// report built from the store without details; warm: kept), the sample index (bytes as sent,
// gzipped), one sample's details, and in headless Chromium (3 loads, the first cold) the time
// from navigation to the overview painted, to the sample browser's first page after its tab is
// clicked, and to a sample's details after its row is clicked. Figures, not assertions: docs/benchmarks.md.
import { median } from '../metrics/median.js';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { startViewServer } from '../report/view/view-server.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { chromiumMissing, launchChromium } from '../testing/chromium.js';
import { packageRoot } from '../version.js';
import { writeStore } from './synthetic-run.js';

const SIZES = (process.env['ASSAY_BENCH_VIEW_N'] ?? '10000,100000').split(',').map(Number);
const LOADS = 3;

async function timed(url: string, gzip = false): Promise<{ ms: number; bytes: number; text: string }> {
  const t0 = performance.now();
  const response = await fetch(url, { headers: gzip ? { 'accept-encoding': 'gzip' } : { 'accept-encoding': 'identity' } });
  const body = Buffer.from(await response.arrayBuffer());
  const ms = performance.now() - t0;
  // fetch inflates gzip itself; the bytes on the wire are the Content-Length the server sent.
  const bytes = Number(response.headers.get('content-length') ?? body.length);
  const text = response.headers.get('content-encoding') === 'gzip' && body[0] === 0x1f ? gunzipSync(body).toString('utf8') : body.toString('utf8');
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return { ms, bytes, text };
}

const ms = (value: number): string => `${Math.round(value)} ms`;

async function main(): Promise<void> {
  const missing = chromiumMissing();
  const dir = join(packageRoot, '.bench', 'view');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const rows: string[] = [];
  for (const n of SIZES) {
    const db = join(dir, `run-${n}.db`);
    const { runId } = await writeStore(db, n);
    const store = await openSqliteStore(db);
    const server = await startViewServer({ store });
    try {
      const base = server.url.replace(/\/$/, '');
      const list = await timed(`${base}/api/runs`);
      const cold = await timed(`${base}/api/report?runs=${runId}`);
      const warm = await timed(`${base}/api/report?runs=${runId}`);
      const index = await timed(`${base}/api/runs/${runId}/samples`);
      const zipped = await timed(`${base}/api/runs/${runId}/samples`, true);
      const detail = await timed(`${base}/api/runs/${runId}/samples/${n - 1}`);
      let paint = 'n/a';
      let browse = 'n/a';
      let open = 'n/a';
      if (!missing) {
        const paints: number[] = [];
        const browses: number[] = [];
        const opens: number[] = [];
        const { context, close } = await launchChromium();
        try {
          for (let k = 0; k < LOADS; k++) {
            const page = await context.newPage();
            await page.goto(`${base}/report?runs=${runId}`, { waitUntil: 'commit' });
            await page.waitForFunction(() => (globalThis as unknown as { document: { documentElement: { dataset: Record<string, string> } } }).document.documentElement.dataset['overview'] === 'painted', undefined, { timeout: 120_000 });
            paints.push(await page.evaluate(() => performance.getEntriesByName('assay-overview-painted')[0]?.startTime ?? Number.NaN));
            const before = await page.evaluate(() => performance.now());
            await page.click('button[data-tab="samples"]');
            await page.waitForSelector('#panel-samples table.samples tbody tr', { timeout: 120_000 });
            const listed = await page.evaluate(() => performance.now());
            browses.push(listed - before);
            await page.click('#panel-samples table.samples tbody tr button.link');
            await page.waitForSelector('#sample-detail .detail', { timeout: 120_000 });
            opens.push((await page.evaluate(() => performance.now())) - listed);
            if (k === 0) await page.screenshot({ path: join(dir, `view-${n}-detail.png`) });
            await page.close();
          }
        } finally {
          await close();
        }
        paint = `${ms(median(paints))} (${paints.map(Math.round).join(', ')})`;
        browse = ms(median(browses));
        open = ms(median(opens));
      }
      rows.push(
        `| ${n.toLocaleString('en-US')} | ${ms(list.ms)} | ${ms(cold.ms)} / ${ms(warm.ms)} (${(cold.bytes / 1e3).toFixed(0)} KB) | ${(index.bytes / 1e6).toFixed(2)} MB, gzip ${(zipped.bytes / 1e6).toFixed(2)} MB, ${ms(index.ms)} | ${ms(detail.ms)} | ${paint} | ${browse} | ${open} |`,
      );
      process.stderr.write(`${rows.at(-1)}\n`);
    } finally {
      await server.close();
      await store.close();
    }
  }
  process.stdout.write(
    [
      `assay view over a synthetic functionchat/singlecall run (1 model + judge); Chromium ${missing ? 'missing: ' + missing : 'headless'}, ${LOADS} page loads each after the fetches above (the report already kept)`,
      '',
      '| samples | run list | summaries cold / warm | sample index | one sample’s details | navigation → overview painted (median; each load) | samples tab → first page | row → details |',
      '|---|---|---|---|---|---|---|---|',
      ...rows,
      '',
    ].join('\n'),
  );
}

await main();
