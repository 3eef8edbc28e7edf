import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { buildRunReport, type RunReport } from '../../src/report/run-report.js';
import { startViewServer, type ViewServer } from '../../src/report/view/view-server.js';
import { startRun } from '../../src/runner/run.js';
import type { RunSpec } from '../../src/runner/run-spec.js';
import type { RunSummary } from '../../src/analysis/summary.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { chromiumMissing, launchChromium, watchPage } from '../../src/testing/chromium.js';
import { startFakeOpenAIServer, type FakeChatRequestBody, type FakeServer } from '../../src/testing/fake-openai-server.js';
import { Gate, waitUntil } from '../../src/testing/gate.js';
import { answerMetaToolPrompt } from '../../src/testing/metatool-answerer.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';

/**
 * `assay view` in real headless Chromium, over a store with two runs made here through a loopback
 * OpenAI-compatible server:
 * - a finished metatool/similar run: `openai:alpha` answers as the deterministic MetaTool
 *   answerer; `openai:beta` answers with hostile payloads (`<script>`, a `</script>` breakout,
 *   `<img onerror>`, a `javascript:` URL) for three prompts in four;
 * - a metatool/awareness run whose answers wait at a closed gate, so it is in progress (its lease
 *   live) while the pages are open; the gate opens and the open pages must show its counts move.
 * Checked: the run list, a run's charts (series and values as the report's data says), filters,
 * sample details loaded on demand and shown as text, no dialog, no `window.pwned`, no request off
 * the viewer; the token when bound to 0.0.0.0. Screenshots go to $ASSAY_SCREENSHOTS or /tmp.
 */
const missing = chromiumMissing();
/** Without the MetaTool data these tests are skipped, saying how to get it. */
const skip = needsData('metatool');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const document: any;
type PageNode = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const SHOTS = process.env['ASSAY_SCREENSHOTS'] ?? join(tmpdir(), 'assay-view-shots');

const SCRIPT = '<script>alert(1)</script>';
const CLOSE_SCRIPT = '</script><script>window.pwned=1</script>';
const IMG = '<img src=x onerror="window.pwned=1">';
const JS_URL = 'javascript:window.pwned=1';
const PAYLOADS = [SCRIPT, `${CLOSE_SCRIPT} ${IMG}`, `see ${JS_URL}`];
const LIVE_SAMPLES = 8;

let server: FakeServer;
let dir: string;
let db: string;
let store: Store;
let doneRun: string;
let liveRun: string;
let liveDone: Promise<RunSummary>;
const gate = new Gate();

const lastUser = (body: FakeChatRequestBody): string => String([...body.messages].reverse().find((m) => m['role'] === 'user')?.['content'] ?? '');
const payloadFor = (prompt: string): string | undefined => PAYLOADS[createHash('sha1').update(prompt).digest().readUInt8(0) % 4];

before(async () => {
  if (missing || skip) return;
  dir = mkdtempSync(join(tmpdir(), 'assay-view-browser-'));
  db = join(dir, 'runs.db');
  server = await startFakeOpenAIServer({
    latencyMs: 1,
    respond: async (body) => {
      const prompt = lastUser(body);
      if (body.model === 'gated') await gate.pass();
      if (body.model === 'beta') return { text: payloadFor(prompt) ?? answerMetaToolPrompt(prompt) };
      return { text: answerMetaToolPrompt(prompt) };
    },
  });
  const engine = { concurrency: 2, timeoutMs: 600_000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: false, openaiBaseURL: server.url, failFast: false };
  store = await openSqliteStore(db);
  const similar: RunSpec = { task: 'metatool/similar', models: ['openai:alpha', 'openai:beta'], seed: 0, options: { perTool: 1, limit: 24 }, dataDir: testDataDir(), engine };
  doneRun = (await startRun(similar, { store })).run;
  // The live run: every answer held at the gate until a test opens it.
  gate.close();
  const aware: RunSpec = { task: 'metatool/awareness', models: ['openai:gated'], seed: 0, options: { limit: LIVE_SAMPLES }, dataDir: testDataDir(), engine };
  const from = server.requests.length;
  liveDone = startRun(aware, { store });
  await waitUntil(() => server.requests.slice(from).some((r) => r.outcome === 'pending'), 'the live run to have a call in flight');
  liveRun = (await store.listRuns())[0]?.id as string;
  assert.notEqual(liveRun, doneRun);
});

after(async () => {
  gate.open();
  await liveDone?.catch(() => undefined);
  await store?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Watches a page for what must never happen: a dialog, a script error, a request off the viewer. */
function watch(page: Page, origin: string): { dialogs: string[]; errors: string[]; offsite: string[]; requests: string[] } {
  const offsite: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(origin)) offsite.push(r.url());
  });
  return { ...watchPage(page), offsite };
}

const painted = (page: Page): Promise<unknown> => page.waitForFunction(() => document.documentElement.dataset['overview'] === 'painted');

describe('assay view in headless Chromium', { skip }, () => {
  if (missing) {
    if (process.env['CI'] === 'true') test('Chromium is installed for the browser tests', () => assert.fail(missing));
    else test('browser tests', { skip: missing }, () => {});
    return;
  }

  let view: ViewServer;
  let viewStore: Store;
  let report: RunReport;
  before(async () => {
    // The viewer opens the store on its own, as `assay view` beside a running `assay run` would.
    viewStore = await openSqliteStore(db);
    view = await startViewServer({ store: viewStore, onError: (e) => assert.fail(String(e)) });
    report = await buildRunReport(store, doneRun, { details: { mode: 'all' } });
  });
  after(async () => {
    await view?.close();
    await viewStore?.close();
  });

  test('the run list, a run’s charts and filters, details on demand, hostile outputs inert', async () => {
    const origin = view.url.replace(/\/$/, '');
    const { context, close } = await launchChromium();
    try {
      const page = await context.newPage();
      const seen = watch(page, origin);
      await page.goto(view.url);
      await painted(page);
      const rows = await page.$$eval('table.runs tbody tr', (trs) => trs.map((tr) => [(tr as PageNode).dataset['run'], (tr as PageNode).dataset['status'], tr.querySelector('td.done')?.textContent]));
      assert.deepEqual(rows, [
        [liveRun, 'running', `0 / ${LIVE_SAMPLES}`],
        [doneRun, 'finished', `${report.overview.samples.total * 2} / ${report.overview.samples.total * 2}`],
      ]);
      assert.equal(await page.getAttribute('header p.live', 'data-live'), 'on');
      await page.screenshot({ path: join(SHOTS, 'view-runs.png'), fullPage: true });

      // Open the finished run from the list.
      await page.click(`tr[data-run="${doneRun}"] button.link`);
      await page.waitForURL(`${origin}/report?runs=${doneRun}`);
      await painted(page);
      assert.equal(await page.getAttribute('header p.live', 'data-live'), 'off');
      await page.click('button[data-tab="charts"]');
      const chart = await page.$$eval('svg[data-chart="csr-by-position"] g.series', (groups) =>
        groups.map((g) => ({ model: (g as PageNode).dataset['model'], bars: [...g.querySelectorAll('rect')].map((r) => [r.getAttribute('data-category'), Number(r.getAttribute('data-value'))]) })),
      );
      assert.deepEqual(chart.map((s) => s.model), ['openai:alpha', 'openai:beta']);
      for (const series of chart) {
        const byPosition = report.summary.models[series.model as string]?.metrics['csr_by_position'] as Record<string, number | { csr: number }>;
        assert.ok(series.bars.length > 0 && series.bars.length === Object.keys(byPosition).length, series.model);
        const expected = report.charts.find((c) => c.id === 'csr-by-position')?.series.find((s) => s.model === series.model);
        assert.deepEqual(series.bars.map(([, v]) => v), expected?.values);
      }
      await page.screenshot({ path: join(SHOTS, 'view-charts.png'), fullPage: true });

      // The sample browser: the index from the viewer, filtered in the page.
      await page.click('button[data-tab="samples"]');
      await page.waitForSelector('#panel-samples table.samples');
      const total = (): Promise<number> => page.evaluate(() => Number(document.querySelector('#panel-samples .count')?.getAttribute('data-total')));
      assert.equal(await total(), report.index.rows.sample.length);
      const noVerdicts = report.index.rows.verdict.filter((v) => report.index.verdicts[v] === 'no verdict').length;
      assert.ok(noVerdicts > 0, 'beta’s payloads are no verdicts');
      await page.setChecked('#panel-samples [data-filter="noVerdict"]', true);
      assert.equal(await total(), noVerdicts);
      await page.selectOption('#panel-samples [data-filter="model"]', 'openai:alpha');
      assert.equal(await total(), report.index.rows.verdict.filter((v, i) => report.index.verdicts[v] === 'no verdict' && report.index.rows.model[i] === 0).length);
      await page.selectOption('#panel-samples [data-filter="model"]', 'openai:beta');
      await page.screenshot({ path: join(SHOTS, 'view-samples.png'), fullPage: true });

      // Every hostile detail, read from the viewer on demand and shown as text.
      const hostile = Object.entries(report.details).filter(([, d]) => PAYLOADS.includes(d.output?.text ?? ''));
      assert.ok(hostile.length >= 3, `hostile rows: ${hostile.length}`);
      const shownPayloads = new Set<string>();
      for (const [row, detail] of hostile.slice(0, 6)) {
        await page.fill('#panel-samples [data-filter="id"]', detail.sample);
        await page.click(`#panel-samples tr[data-row="${row}"] button.link`);
        await page.waitForFunction((id) => document.querySelector('#sample-detail .detail')?.getAttribute('data-sample') === id, detail.sample);
        assert.equal(await page.textContent('#sample-detail .raw-output'), detail.output?.text);
        shownPayloads.add(detail.output?.text ?? '');
        assert.ok(seen.requests.includes(`${origin}/api/runs/${doneRun}/samples/${row}`), `row ${row} was fetched on demand`);
      }
      assert.ok(shownPayloads.size >= 2);
      await page.screenshot({ path: join(SHOTS, 'view-detail.png'), fullPage: true });

      const state = await page.evaluate(() => ({
        pwned: (globalThis as { pwned?: unknown }).pwned,
        images: document.images.length,
        links: document.querySelectorAll('a, iframe, object, embed').length,
        scripts: document.scripts.length,
      }));
      assert.deepEqual(state, { pwned: undefined, images: 0, links: 0, scripts: 2 });
      assert.deepEqual(seen.dialogs, []);
      assert.deepEqual(seen.errors, []);
      assert.deepEqual(seen.offsite, []);

      // Side by side: both runs checked in the list.
      await page.goto(view.url);
      await painted(page);
      await page.check(`tr[data-run="${doneRun}"] input[type="checkbox"]`);
      await page.check(`tr[data-run="${liveRun}"] input[type="checkbox"]`);
      await page.click('button[data-action="side-by-side"]');
      await page.waitForURL(/\/report\?runs=/);
      await painted(page);
      const blocks = await page.$$eval('#panel-overview article.run', (nodes) => nodes.map((n) => (n as PageNode).dataset['run']));
      assert.deepEqual(blocks.sort(), [doneRun, liveRun].sort());
      // In columns, one per run, not one run after the other.
      const boxes = await page.$$eval('#panel-overview article.run', (nodes) => nodes.map((n) => (n as PageNode).getBoundingClientRect() as { x: number; y: number }));
      assert.ok(boxes[0]?.y === boxes[1]?.y && (boxes[1]?.x ?? 0) > (boxes[0]?.x ?? 0), JSON.stringify(boxes));
      await page.screenshot({ path: join(SHOTS, 'view-side-by-side.png') });
    } finally {
      await close();
    }
  });

  test('a run in progress: the open run page and run list update their counts when the answers come', async () => {
    const origin = view.url.replace(/\/$/, '');
    const { context, close } = await launchChromium();
    try {
      const runPage = await context.newPage();
      const seen = watch(runPage, origin);
      await runPage.goto(`${origin}/report?runs=${liveRun}`);
      await painted(runPage);
      const counts = (): Promise<(string | null)[]> => runPage.$$eval('#panel-overview table.counts tbody tr td', (tds) => tds.slice(0, 6).map((td) => td.textContent));
      assert.deepEqual(await counts(), ['openai:gated', String(LIVE_SAMPLES), '0', '0', '0', String(LIVE_SAMPLES)]);
      assert.equal(await runPage.getAttribute('header p.live', 'data-live'), 'on');
      assert.equal(await runPage.textContent('#panel-overview .status'), 'running');
      const listPage = await context.newPage();
      await listPage.goto(view.url);
      await painted(listPage);
      await runPage.screenshot({ path: join(SHOTS, 'view-live-before.png'), fullPage: true });

      gate.open();
      const summary = await liveDone;
      const done = summary.models['openai:gated']?.counts.done;
      assert.equal(done, LIVE_SAMPLES);
      // No reload: the pages poll and repaint, then stop polling once the run has ended.
      await runPage.waitForFunction(() => document.querySelector('header p.live')?.getAttribute('data-live') === 'off', undefined, { timeout: 60_000 });
      assert.deepEqual(await counts(), ['openai:gated', String(LIVE_SAMPLES), String(LIVE_SAMPLES), '0', '0', '0']);
      assert.equal(await runPage.textContent('#panel-overview .status'), 'finished');
      await listPage.waitForFunction((run) => document.querySelector(`tr[data-run="${run}"]`)?.getAttribute('data-status') === 'finished', liveRun, { timeout: 60_000 });
      assert.equal(await listPage.textContent(`tr[data-run="${liveRun}"] td.done`), `${LIVE_SAMPLES} / ${LIVE_SAMPLES}`);
      await runPage.screenshot({ path: join(SHOTS, 'view-live-after.png'), fullPage: true });
      await listPage.screenshot({ path: join(SHOTS, 'view-runs-after.png'), fullPage: true });
      assert.ok(seen.requests.filter((u) => u.startsWith(`${origin}/api/progress`)).length >= 1, 'it polled');
      assert.deepEqual(seen.offsite, []);
      assert.deepEqual(seen.errors, []);
    } finally {
      await close();
    }
  });

  test('bound to 0.0.0.0: refused without the token, opened with the printed URL', async () => {
    const open = await startViewServer({ store: viewStore, host: '0.0.0.0' });
    const { context, close } = await launchChromium();
    try {
      const page = await context.newPage();
      const base = `http://127.0.0.1:${open.port}/`;
      const refused = await page.goto(base);
      assert.equal(refused?.status(), 403);
      assert.match((await page.textContent('body')) ?? '', /needs the access token/);
      await page.goto(open.url);
      await painted(page);
      assert.equal(page.url(), base, 'the token leaves the address bar');
      assert.equal(await page.$$eval('table.runs tbody tr', (trs) => trs.length), 2);
      await page.screenshot({ path: join(SHOTS, 'view-token.png'), fullPage: true });
    } finally {
      await close();
      await open.close();
    }
  });
});
