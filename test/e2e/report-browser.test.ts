import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { findTask } from '../../src/benchmarks/registry.js';
import type { Sample } from '../../src/core/index.js';
import type { GroundTruth } from '../../src/datasets/functionchat/index.js';
import { buildReportBundle, type ReportBundle } from '../../src/report/run-report.js';
import { applyReviewFile } from '../../src/analysis/review.js';
import { startRun } from '../../src/runner/run.js';
import type { RunSpec } from '../../src/runner/run-spec.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { chromiumMissing, launchChromium, watchPage } from '../../src/testing/chromium.js';
import { assay } from '../../src/testing/cli-harness.js';
import { startFakeOpenAIServer, type FakeAnswer, type FakeChatRequestBody, type FakeServer } from '../../src/testing/fake-openai-server.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';

/**
 * The HTML report of real runs, opened from a file in real headless Chromium. Two runs made here
 * through a loopback OpenAI-compatible server whose answers carry hostile payloads:
 * - functionchat/singlecall (10 items, judged), on a copy of the data dir that is deleted before
 *   the report is made: `openai:alpha` answers exactly, or with text holding `<script>`, or a
 *   call whose arguments close a script element, or fails (server errors → error results);
 *   `openai:beta` answers exactly or with text the judge cannot read (no verdict after one
 *   re-ask); the judge's replies carry `javascript:` URLs and markup. A human review flips one
 *   verdict.
 * - metatool/awareness (12 items) answered yes, yes, no, no or with an `<img onerror>` payload
 *   (no verdict), in turn: the confusion matrix is counted by hand here.
 * Checked in the page: no dialog, no `window.pwned`, the payloads visible as text, no element
 * made from them, no request but the file, the charts' series and values, the filters.
 */
const missing = chromiumMissing();
/** Without the benchmark data these tests are skipped, saying how to get it. */
const skip = needsData('functionchat', 'metatool');

// The callbacks given to page.evaluate/$$eval run in the page; this Node program has no DOM types,
// so the page's globals are declared loosely for them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const document: any;
type PageNode = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const SHOTS = process.env['ASSAY_SCREENSHOTS'] ?? join(tmpdir(), 'assay-report-shots');

const SCRIPT = '<script>alert(1)</script>';
const CLOSE_SCRIPT = '</script><script>window.pwned=1</script>';
const IMG = '<img src=x onerror="window.pwned=1">';
const JS_URL = 'javascript:window.pwned=1';
const PASS_WORD = 'JUDGE-PASS';
const ECHO_WORD = 'JUDGE-CANNOT-READ';
const FC_LIMIT = 10;
const AW_LIMIT = 12;

let server: FakeServer;
let dir: string;
let db: string;
let fcRun: string;
let awRun: string;
let fcSamples: Sample[];
let awSamples: Sample[];
/** What each model answers per singlecall key, and the verdict that follows (null: no verdict, 'error'). */
const fcPlan = new Map<string, { alpha: FakeAnswer | 'error'; beta: FakeAnswer; expected: { alpha: boolean | null | 'error'; beta: boolean | null } }>();
const awPlan = new Map<string, { answer: string; predicted: boolean | null; actual: boolean }>();

const fcKey = (query: string, tools: readonly string[]): string => `${query}|${tools.join(',')}`;
const lastUser = (body: FakeChatRequestBody): string => String([...body.messages].reverse().find((m) => m['role'] === 'user')?.['content'] ?? '');
const toolNames = (body: FakeChatRequestBody): string[] => ((body['tools'] as { function: { name: string } }[] | undefined) ?? []).map((t) => t.function.name);

function judgeReply(body: FakeChatRequestBody): FakeAnswer {
  const prompt = String(body.messages[body.messages.length - 1]?.content ?? '');
  if (prompt.includes(ECHO_WORD)) return { text: `I cannot tell ${SCRIPT} — see ${JS_URL}` };
  return { text: `Reasoning with a link ${JS_URL} and ${IMG}.\n${prompt.includes(PASS_WORD) ? 'pass' : 'fail'}` };
}

function planSinglecall(sample: Sample, i: number): void {
  const truth = (sample.target as { groundTruth: GroundTruth }).groundTruth;
  assert.equal(truth.kind, 'call');
  const exact: FakeAnswer = { toolCalls: [{ name: truth.name, arguments: truth.rawArguments }] };
  const alpha: FakeAnswer | 'error' = [exact, { text: `${SCRIPT} ${PASS_WORD}` }, { toolCalls: [{ name: truth.name, arguments: JSON.stringify({ q: CLOSE_SCRIPT }) }] }, { text: `${IMG} ${JS_URL}` }, 'error'][i % 5] as FakeAnswer | 'error';
  const alphaExpected = [true, true, false, false, 'error'][i % 5] as boolean | 'error';
  const beta: FakeAnswer = i % 2 === 0 ? exact : { text: `${ECHO_WORD} ${IMG}` };
  const tools = (sample.tools ?? []).map((t) => t.name);
  const query = String(sample.input[sample.input.length - 1]?.content);
  fcPlan.set(fcKey(query, tools), { alpha, beta, expected: { alpha: alphaExpected, beta: i % 2 === 0 ? true : null } });
}

before(async () => {
  if (missing || skip) return;
  dir = mkdtempSync(join(tmpdir(), 'assay-report-browser-'));
  db = join(dir, 'runs.db');
  // A copy of the FunctionChat data, removed once the run is made: the report must not need it.
  const dataCopy = join(dir, 'data');
  cpSync(join(testDataDir(), 'functionchat'), join(dataCopy, 'functionchat'), { recursive: true });
  fcSamples = [...(await findTask('functionchat/singlecall').prepare({ dataDir: dataCopy, seed: 0, options: { limit: FC_LIMIT } })).samples];
  fcSamples.forEach(planSinglecall);
  assert.equal(fcPlan.size, FC_LIMIT, 'every singlecall item has its own key');
  awSamples = [...(await findTask('metatool/awareness').prepare({ dataDir: testDataDir(), seed: 0, options: { limit: AW_LIMIT } })).samples];
  awSamples.forEach((sample, i) => {
    const actual = sample.target as boolean;
    // A cycle of five over items that alternate needs-a-tool / not: every cell of the matrix gets some.
    const [answer, predicted] = ([['yes', true], ['yes', true], ['no', false], ['no', false], [IMG, null]] as const)[i % 5] as readonly [string, boolean | null];
    awPlan.set(String(sample.input[0]?.content), { answer, predicted, actual });
  });
  server = await startFakeOpenAIServer({
    latencyMs: 1,
    respond: (body) => {
      if (body.model === 'judge') return judgeReply(body);
      const aw = awPlan.get(lastUser(body));
      if (aw) return { text: aw.answer };
      const entry = fcPlan.get(fcKey(lastUser(body), toolNames(body)));
      if (!entry) throw new Error(`no planned answer for ${lastUser(body).slice(0, 40)}`);
      const answer = body.model === 'alpha' ? entry.alpha : entry.beta;
      if (answer === 'error') throw new Error('planned server error');
      return answer;
    },
  });
  const engine = { concurrency: 4, timeoutMs: 5000, retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1 }, cache: true, openaiBaseURL: server.url, failFast: false };
  const store = await openSqliteStore(db);
  try {
    const fcSpec: RunSpec = {
      task: 'functionchat/singlecall',
      models: ['openai:alpha', 'openai:beta'],
      seed: 0,
      options: { limit: FC_LIMIT },
      dataDir: dataCopy,
      engine,
      judge: { model: 'openai:judge', repeats: 1, format: 'text', maxParseRetries: 1, temperature: 0.1 },
    };
    fcRun = (await startRun(fcSpec, { store })).run;
    const awSpec: RunSpec = { task: 'metatool/awareness', models: ['openai:alpha'], seed: 0, options: { limit: AW_LIMIT }, dataDir: testDataDir(), engine };
    awRun = (await startRun(awSpec, { store })).run;
    // A reviewer passes the first item the judge failed (alpha, third item).
    const failed = fcSamples[2] as Sample;
    const reviews = join(dir, 'reviews.csv');
    writeFileSync(reviews, `item,model,verdict,note\n${failed.id},openai:alpha,pass,"${SCRIPT} fine"\n`);
    await applyReviewFile(store, fcRun, reviews);
  } finally {
    await store.close();
  }
  rmSync(dataCopy, { recursive: true, force: true });
});

after(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The rows the sample browser shows now, and the total it counts. */
async function visibleRows(page: Page): Promise<{ total: number; rows: { verdict: string; run: string }[] }> {
  return page.evaluate(() => ({
    total: Number(document.querySelector('#panel-samples .count')?.getAttribute('data-total')),
    rows: [...document.querySelectorAll('#panel-samples table.samples tbody tr')].map((tr: PageNode) => ({ verdict: (tr as PageNode).dataset['verdict'] ?? '', run: (tr as PageNode).dataset['run'] ?? '' })),
  }));
}

async function setFilter(page: Page, name: string, value: string | boolean): Promise<void> {
  const selector = `#panel-samples [data-filter="${name}"]`;
  if (typeof value === 'boolean') await page.setChecked(selector, value);
  else if (name === 'id') await page.fill(selector, value);
  else await page.selectOption(selector, value);
}

describe('the HTML report in headless Chromium', { skip }, () => {
  if (missing) {
    // CI installs Chromium (.ci/run): there a missing one is a failure, here a skip that says why.
    if (process.env['CI'] === 'true') test('Chromium is installed for the browser tests', () => assert.fail(missing));
    else test('browser tests', { skip: missing }, () => {});
    return;
  }

  let bundle: ReportBundle;
  let file: string;
  let html: string;

  before(async () => {
    file = join(dir, 'report.html');
    const made = await assay(['report', fcRun, awRun, '-o', file, '--db', db]);
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stderr, /wrote .*report\.html: 2 run\(s\), 32 sample rows, details for 32/);
    html = readFileSync(file, 'utf8');
    const store = await openSqliteStore(db);
    try {
      bundle = await buildReportBundle(store, [fcRun, awRun]);
    } finally {
      await store.close();
    }
  });

  test('the file: a CSP that forbids every request, no raw payload in its markup', () => {
    assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-[^']+'; style-src 'sha256-[^']+'; img-src data:; connect-src 'none'/);
    // One executable script (the page) and three data blocks; no payload closes or opens an element.
    assert.equal(html.split('</script>').length - 1, 4);
    for (const payload of [SCRIPT, CLOSE_SCRIPT, IMG]) assert.ok(!html.includes(payload), payload);
    assert.ok(!/<img/i.test(html));
  });

  test('opens with no network, no dialog, no script from the data; overview, charts and filters as the runs say', async () => {
    const { context, close } = await launchChromium();
    try {
      const page = await context.newPage();
      const { requests, dialogs, errors } = watchPage(page);
      await page.goto(`file://${file}`);
      await page.waitForFunction(() => document.documentElement.dataset['overview'] === 'painted');

      // Overview: one block per run, with the counts of errors and no verdicts.
      const runs = await page.$$eval('#panel-overview article.run', (nodes) => nodes.map((n) => (n as PageNode).dataset['run']));
      assert.deepEqual(runs, [fcRun, awRun]);
      const alpha = bundle.runs[0]?.summary.models['openai:alpha']?.counts;
      assert.equal(alpha?.errors, 2);
      const counts = await page.$$eval('#panel-overview article.run table.counts tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 6).map((td) => td.textContent)));
      // model, samples, done, errors, no verdict, pending: alpha's two server errors, beta's five no verdicts, awareness' two.
      assert.deepEqual(counts, [
        ['openai:alpha', '10', '8', '2', '0', '0'],
        ['openai:beta', '10', '10', '0', '5', '0'],
        ['openai:alpha', '12', '12', '0', '2', '0'],
      ]);
      await page.screenshot({ path: join(SHOTS, 'overview.png'), fullPage: true });

      // Models: the metrics side by side, with the judge's health beside the judged numbers.
      await page.click('button[data-tab="models"]');
      const metricKeys = await page.$$eval('#panel-models article.run:first-child table.metrics tbody tr td:first-child code', (codes) => codes.map((code) => code.textContent));
      assert.ok(metricKeys.includes('by_tools_type.exact.pass_rate') && metricKeys.includes('errors.no_call'), metricKeys.join(' '));
      assert.match((await page.textContent('#panel-models li[data-model="openai:beta"]')) ?? '', /no verdict 5 \(100\.0%\), re-asks 5/);
      await page.screenshot({ path: join(SHOTS, 'models.png'), fullPage: true });

      // Charts: the pass rate per tool list, one series per model, the values the metrics give.
      await page.click('button[data-tab="charts"]');
      const chart = await page.$$eval('svg[data-chart="pass-by-tools-type"] g.series', (groups) =>
        groups.map((g) => ({
          model: (g as PageNode).dataset['model'],
          bars: [...g.querySelectorAll('rect')].map((r) => [r.getAttribute('data-category'), Number(r.getAttribute('data-value'))]),
          whiskers: g.querySelectorAll('g.whisker').length,
        })),
      );
      assert.deepEqual(chart.map((s) => s.model), ['openai:alpha', 'openai:beta']);
      for (const series of chart) {
        const byType = bundle.runs[0]?.summary.models[series.model as string]?.metrics['by_tools_type'] as Record<string, { pass_rate: number }>;
        assert.deepEqual(series.bars, Object.entries(byType).map(([type, t]) => [type, t.pass_rate]));
        assert.equal(series.whiskers, series.bars.length);
      }
      // By hand from the plan: beta passes exactly the even items (its odd ones are no verdicts).
      const betaPasses = chart[1]?.bars.reduce((n, [type, rate]) => n + (rate as number) * fcSamples.filter((s) => s.metadata['tools_type'] === type).length, 0);
      assert.equal(Math.round(betaPasses ?? 0), FC_LIMIT / 2);
      assert.ok(await page.$('svg[data-chart="error-taxonomy"]'));
      // The awareness confusion matrix, counted here from the plan (no verdicts in no cell).
      const expected = { tp: 0, fp: 0, tn: 0, fn: 0 };
      for (const { predicted, actual } of awPlan.values()) {
        if (predicted === null) continue;
        expected[predicted ? (actual ? 'tp' : 'fp') : actual ? 'fn' : 'tn']++;
      }
      const cells = await page.$$eval('[data-chart="awareness-confusion"] td.cell', (tds) => Object.fromEntries(tds.map((td) => [(td as PageNode).dataset['category'], Number((td as PageNode).dataset['value'])])));
      assert.deepEqual(cells, expected);
      // Items 0, 2, 4… need a tool: tp items 0, 6, 10; fp 1, 5, 11; fn 2, 8; tn 3, 7; no verdict 4, 9.
      assert.deepEqual(expected, { tp: 3, fp: 3, tn: 2, fn: 2 });
      await page.screenshot({ path: join(SHOTS, 'charts.png'), fullPage: true });

      // Judge health: beta's five no verdicts, each re-asked once.
      await page.click('button[data-tab="judge"]');
      const judgeRows = await page.$$eval('#panel-judge table.judge tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
      assert.equal(judgeRows.length, 2);
      assert.deepEqual([judgeRows[1]?.[0], judgeRows[1]?.[3], judgeRows[1]?.[5]], ['openai:beta', '5 (100.0%)', '5']);
      assert.match(judgeRows[0]?.[9] ?? '', /0\.0% of 1 \(1 changed\)/);
      await page.screenshot({ path: join(SHOTS, 'judge.png'), fullPage: true });

      // The sample browser: every row of both runs, then the filters.
      await page.click('button[data-tab="samples"]');
      await page.waitForSelector('#panel-samples table.samples');
      assert.equal((await visibleRows(page)).total, FC_LIMIT * 2 + AW_LIMIT);
      await setFilter(page, 'verdict', 'error');
      let shown = await visibleRows(page);
      assert.equal(shown.total, 2);
      assert.ok(shown.rows.every((r) => r.verdict === 'error'));
      await setFilter(page, 'verdict', '');
      await setFilter(page, 'error', 'server');
      assert.equal((await visibleRows(page)).total, 2);
      await setFilter(page, 'error', '');
      await setFilter(page, 'noVerdict', true);
      assert.equal((await visibleRows(page)).total, FC_LIMIT / 2 + 2);
      await setFilter(page, 'model', 'openai:beta');
      assert.equal((await visibleRows(page)).total, FC_LIMIT / 2);
      await setFilter(page, 'noVerdict', false);
      await setFilter(page, 'model', '');
      await setFilter(page, 'changed', true);
      shown = await visibleRows(page);
      assert.equal(shown.total, 1);
      await setFilter(page, 'changed', false);
      await setFilter(page, 'run', '1');
      shown = await visibleRows(page);
      assert.equal(shown.total, AW_LIMIT);
      assert.ok(shown.rows.every((r) => r.run === '1'));
      await setFilter(page, 'run', '-1');
      await page.screenshot({ path: join(SHOTS, 'samples.png') });

      // A hostile sample's detail: the payloads are text on the page, and nothing ran.
      await setFilter(page, 'id', fcSamples[1]?.id as string);
      await setFilter(page, 'model', 'openai:alpha');
      await page.click('#panel-samples table.samples tbody tr button.link');
      await page.waitForSelector('#sample-detail .detail');
      const raw = await page.textContent('#sample-detail .raw-output');
      assert.equal(raw, `${SCRIPT} ${PASS_WORD}`);
      const detailText = (await page.textContent('#sample-detail')) ?? '';
      assert.ok(detailText.includes(JS_URL) && detailText.includes(IMG), 'the judge reply is shown as text');
      assert.ok(detailText.includes('Every call (2)'), 'the model call and the judge call');
      await page.screenshot({ path: join(SHOTS, 'detail-script.png'), fullPage: true });
      await setFilter(page, 'id', fcSamples[2]?.id as string);
      await page.click('#panel-samples table.samples tbody tr button.link');
      await page.waitForFunction((id) => document.querySelector('#sample-detail .detail')?.getAttribute('data-sample') === id, fcSamples[2]?.id);
      assert.ok(((await page.textContent('#sample-detail')) ?? '').includes(CLOSE_SCRIPT));
      assert.ok(((await page.textContent('#sample-detail')) ?? '').includes('changed the stored verdictyes'));

      const state = await page.evaluate(() => ({
        pwned: (globalThis as { pwned?: unknown }).pwned,
        scripts: document.scripts.length,
        images: document.images.length,
        links: document.querySelectorAll('a, iframe, object, embed').length,
      }));
      assert.deepEqual(state, { pwned: undefined, scripts: 4, images: 0, links: 0 });
      assert.deepEqual(dialogs, []);
      assert.deepEqual(errors, []);
      assert.deepEqual(requests, [`file://${file}`]);
    } finally {
      await close();
    }
  });

  test('a report carrying some details: the others say how to get them; --json is the same data', async () => {
    const small = join(dir, 'small.html');
    const made = await assay(['report', fcRun, '-o', small, '--details', '3', '--db', db]);
    assert.equal(made.code, 0, made.stderr);
    const json = await assay(['report', fcRun, '--json', '--details', '0', '--db', db]);
    assert.equal(json.code, 0, json.stderr);
    const data = JSON.parse(json.stdout) as ReportBundle;
    assert.equal(data.schema, 1);
    assert.deepEqual(data.runs[0]?.summary.models, bundle.runs[0]?.summary.models);
    assert.equal(Object.keys(data.runs[0]?.details ?? {}).length, 0);
    const show = await assay(['show', fcRun, '--json', '--db', db]);
    const { lease: _lease, metric_declarations: declarations, ...shown } = JSON.parse(show.stdout) as Record<string, unknown>;
    assert.deepEqual(shown, data.runs[0]?.summary, 'the report holds the --json summary, exactly');
    assert.deepEqual(declarations, data.runs[0]?.metricDeclarations, 'and the declarations of its metrics');

    const { context, close } = await launchChromium();
    try {
      const page = await context.newPage();
      await page.goto(`file://${small}`);
      await page.click('button[data-tab="samples"]');
      await page.waitForSelector('#panel-samples table.samples');
      const inFile = await page.$$eval('#panel-samples table.samples tbody tr td:last-child', (tds) => tds.filter((td) => td.textContent === 'in file').length);
      assert.equal(inFile, 3);
      await setFilter(page, 'detailed', true);
      // The three: the review's change first, then the two errors.
      assert.deepEqual((await visibleRows(page)).rows.map((r) => r.verdict).sort(), ['error', 'error', 'fail']);
      await setFilter(page, 'detailed', false);
      // The errors come first among the rows with details; a pass of alpha has none: its row opens
      // nothing and says so itself, with the flag that brings the details.
      await setFilter(page, 'verdict', 'pass');
      await setFilter(page, 'model', 'openai:alpha');
      const row = '#panel-samples table.samples tbody tr';
      assert.equal(await page.$(`${row} button.link`), null);
      assert.equal(await page.textContent(`${row} td:last-child`), 'not in this file (--details 3): make it with --details all');
      assert.match((await page.getAttribute(`${row} td:last-child span`, 'title')) ?? '', /carries the details of 3 of 20 rows \(--details 3\)/);
    } finally {
      await close();
    }
  });
});
