// `npm run bench:report`: the HTML report of a large run. For N = 10,000 and 100,000 samples
// (ASSAY_BENCH_REPORT_N="10000,100000"), a synthetic FunctionChat single-call run is written
// straight through the store API (one model under test, a judge; ~70% pass, ~20% fail with a
// judge call, ~8% no verdict with a re-ask, ~2% server errors; no model is called), then:
// the time to build the report from the store and render the file, the file's size, and in
// headless Chromium (3 loads each) the time from navigation to the overview painted and to the
// sample browser's first page after its tab is clicked. ASSAY_BENCH_REPORT_DETAILS=all|failing|<n>
// sets --details. Figures, not assertions: docs/benchmarks.md.
import { median } from '../metrics/median.js';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderReportHtml } from '../report/html/html-report.js';
import { buildReportBundle, parseDetailsPolicy } from '../report/run-report.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { chromiumMissing, launchChromium } from '../testing/chromium.js';
import { packageRoot } from '../version.js';
import { writeStore } from './synthetic-run.js';

const SIZES = (process.env['ASSAY_BENCH_REPORT_N'] ?? '10000,100000').split(',').map(Number);
const LOADS = 3;
/** `--details` of the reports (default: the CLI's default). */
const DETAILS = process.env['ASSAY_BENCH_REPORT_DETAILS'];

async function main(): Promise<void> {
  const missing = chromiumMissing();
  const dir = join(packageRoot, '.bench', 'report');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const rows: string[] = [];
  for (const n of SIZES) {
    const db = join(dir, `run-${n}.db`);
    const { runId, ms: writeMs } = await writeStore(db, n);
    const store = await openSqliteStore(db);
    const t0 = performance.now();
    const bundle = await buildReportBundle(store, [runId], DETAILS ? { details: parseDetailsPolicy(DETAILS) } : {});
    const t1 = performance.now();
    const html = renderReportHtml(bundle);
    const t2 = performance.now();
    await store.close();
    const file = join(dir, `report-${n}.html`);
    writeFileSync(file, html);
    const size = statSync(file).size;
    const samplesJson = html.length - html.indexOf('id="assay-samples-0"');
    let paint = 'n/a';
    let browse = 'n/a';
    if (!missing) {
      const paints: number[] = [];
      const browses: number[] = [];
      const { context, close } = await launchChromium();
      try {
        for (let k = 0; k < LOADS; k++) {
          const page = await context.newPage();
          await page.goto(`file://${file}`, { waitUntil: 'commit' });
          await page.waitForFunction(() => (globalThis as unknown as { document: { documentElement: { dataset: Record<string, string> } } }).document.documentElement.dataset['overview'] === 'painted', undefined, { timeout: 120_000 });
          // Navigation start → the frame that shows the overview (the page marks it; times count from navigation start).
          paints.push(await page.evaluate(() => performance.getEntriesByName('assay-overview-painted')[0]?.startTime ?? Number.NaN));
          await page.waitForLoadState('load');
          const before = await page.evaluate(() => performance.now());
          await page.click('button[data-tab="samples"]');
          await page.waitForSelector('#panel-samples table.samples tbody tr', { timeout: 120_000 });
          browses.push((await page.evaluate(() => performance.now())) - before);
          if (k === 0) await page.screenshot({ path: join(dir, `report-${n}-samples.png`) });
          await page.close();
        }
      } finally {
        await close();
      }
      paint = `${Math.round(median(paints))} ms (${paints.map(Math.round).join(', ')})`;
      browse = `${Math.round(median(browses))} ms`;
    }
    const details = bundle.runs[0]?.detailsPolicy;
    rows.push(
      `| ${n.toLocaleString('en-US')} | ${(size / 1e6).toFixed(2)} MB (samples block ${(samplesJson / 1e6).toFixed(2)} MB; ${details?.included} details) | ${Math.round(t1 - t0)} ms + ${Math.round(t2 - t1)} ms | ${paint} | ${browse} | ${(writeMs / 1000).toFixed(1)} s |`,
    );
    process.stderr.write(`${rows.at(-1)}\n`);
  }
  process.stdout.write(
    [
      `report of a synthetic functionchat/singlecall run (1 model + judge), --details ${DETAILS ?? 'default'}; Chromium ${missing ? 'missing: ' + missing : 'headless'}, ${LOADS} loads each`,
      '',
      '| samples | file | build + render | navigation → overview painted (median; each load) | samples tab → first page | store written in |',
      '|---|---|---|---|---|---|',
      ...rows,
      '',
    ].join('\n'),
  );
}

await main();
