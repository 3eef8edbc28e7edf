import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { findTask } from '../../src/benchmarks/registry.js';
import type { Sample } from '../../src/core/index.js';
import { startRun } from '../../src/runner/run.js';
import type { RunSpec } from '../../src/runner/run-spec.js';
import type { RunComparison } from '../../src/analysis/compare/run-comparison.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { chromiumMissing, launchChromium, watchPage } from '../../src/testing/chromium.js';
import { assay } from '../../src/testing/cli-harness.js';
import { startFakeOpenAIServer, type FakeChatRequestBody, type FakeServer } from '../../src/testing/fake-openai-server.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';

/**
 * `assay compare A B -o compare.html` opened in headless Chromium. Two runs of metatool/awareness
 * (12 items, the same model) made here through a loopback server whose answers follow a plan:
 * item i passes or fails in run A and in run B as PLAN says (a right or a wrong yes/no), or has
 * no verdict in B (a bare `<img onerror>`); every answer carries a hostile payload after its
 * yes/no. By hand from the plan: 11 items decided on both sides, A passes 6, B passes 8, so
 * B − A = 2/11; newly failing 1, newly passing 3 (McNemar exact p = 2·(1 + 4)/16 = 0.625), still
 * failing 2, unchanged 5, no verdict 1, error 0.
 */
const missing = chromiumMissing();
/** Without the MetaTool data these tests are skipped, saying how to get it. */
const skip = needsData('metatool');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const document: any;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const window: any;
type PageNode = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const SHOTS = process.env['ASSAY_SCREENSHOTS'] ?? join(tmpdir(), 'assay-compare-shots');

const SCRIPT = '<script>alert(1)</script>';
const CLOSE_SCRIPT = '</script><script>window.pwned=1</script>';
const IMG = '<img src=x onerror="window.pwned=1">';
const JS_URL = 'javascript:window.pwned=1';
const PAYLOADS = [SCRIPT, CLOSE_SCRIPT, IMG, JS_URL];

type Outcome = 'P' | 'F' | 'NV';
/** Item i: its outcome in run A, then in run B. */
const PLAN: readonly (readonly [Outcome, Outcome])[] = [
  ['P', 'P'], ['F', 'P'], ['P', 'F'], ['F', 'NV'], ['P', 'P'], ['F', 'P'],
  ['P', 'P'], ['F', 'F'], ['P', 'P'], ['F', 'P'], ['P', 'P'], ['F', 'F'],
];

let server: FakeServer;
let dir: string;
let db: string;
let samples: Sample[];
const runs: string[] = [];
let phase = 0;
/** What each run's model answers, by prompt. */
const answers = [new Map<string, string>(), new Map<string, string>()];

const lastUser = (body: FakeChatRequestBody): string => String([...body.messages].reverse().find((m) => m['role'] === 'user')?.['content'] ?? '');
const idsWhere = (a: Outcome, b: Outcome): string[] => PLAN.flatMap(([x, y], i) => (x === a && y === b ? [samples[i]?.id as string] : []));

before(async () => {
  if (missing || skip) return;
  dir = mkdtempSync(join(tmpdir(), 'assay-compare-browser-'));
  db = join(dir, 'runs.db');
  samples = [...(await findTask('metatool/awareness').prepare({ dataDir: testDataDir(), seed: 0, options: { limit: PLAN.length } })).samples];
  samples.forEach((sample, i) => {
    const actual = sample.target as boolean;
    PLAN[i]?.forEach((outcome, run) => {
      const right = actual ? 'yes' : 'no';
      const wrong = actual ? 'no' : 'yes';
      const text = outcome === 'NV' ? IMG : `${outcome === 'P' ? right : wrong} ${PAYLOADS[(i + run) % PAYLOADS.length]}`;
      answers[run]?.set(String(sample.input[0]?.content), text);
    });
  });
  server = await startFakeOpenAIServer({
    respond: (body) => {
      const text = answers[phase]?.get(lastUser(body));
      if (text === undefined) throw new Error('no planned answer');
      return { text };
    },
  });
  const store = await openSqliteStore(db);
  try {
    for (phase = 0; phase < 2; phase++) {
      // No cache: run B asks the same prompts of the same model and must get its own answers.
      const spec: RunSpec = { task: 'metatool/awareness', models: ['openai:m'], seed: 0, options: { limit: PLAN.length }, dataDir: testDataDir(), engine: { concurrency: 2, timeoutMs: 5000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: false, openaiBaseURL: server.url } };
      runs.push((await startRun(spec, { store })).run);
    }
  } finally {
    await store.close();
  }
});

after(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the comparison page in headless Chromium', { skip }, () => {
  if (missing) {
    if (process.env['CI'] === 'true') test('Chromium is installed for the browser tests', () => assert.fail(missing));
    else test('browser tests', { skip: missing }, () => {});
    return;
  }

  test('compare -o: differences, interval, test and buckets as computed by hand; each bucket sample opens both runs; payloads stay text', async () => {
    const file = join(dir, 'compare.html');
    const made = await assay(['compare', runs[0] as string, runs[1] as string, '-o', file, '--json', '--db', db]);
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stderr, /wrote .*compare\.html: the comparison and 2 run reports, details for 24 sample rows/);
    const json = JSON.parse(made.stdout) as RunComparison;
    const html = readFileSync(file, 'utf8');
    for (const payload of [SCRIPT, CLOSE_SCRIPT, IMG]) assert.ok(!html.includes(payload), payload);
    assert.ok(!/<img/i.test(html));
    // The page's script, the summaries, the comparison and the two runs' samples.
    assert.equal(html.split('</script>').length - 1, 5);

    const pf = json.comparisons[0]?.passFail;
    assert.ok(pf?.interval);
    // B − A as floating point computes it (2/11 up to the last bit).
    const difference = 8 / 11 - 6 / 11;
    assert.deepEqual([pf.decided, pf.rateA, pf.rateB, pf.difference, pf.intervalMethod === 'newcombe-paired-hybrid-score' && pf.mcnemar.exactP], [11, 6 / 11, 8 / 11, difference, 0.625]);

    mkdirSync(SHOTS, { recursive: true });
    const { context, close } = await launchChromium({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      const { requests, dialogs, errors } = watchPage(page);
      await page.goto(`file://${file}`);
      await page.waitForFunction(() => document.documentElement.dataset['overview'] === 'painted');

      // It opens on the comparison.
      assert.equal(await page.getAttribute('nav.tabs button.active', 'data-tab'), 'comparison');
      const forest = await page.$$eval('svg[data-chart="forest-pass-rate"] g.forest-row', (rows) =>
        rows.map((g) => ({ model: (g as PageNode).dataset['model'], difference: Number(g.getAttribute('data-difference')), low: Number(g.getAttribute('data-low')), high: Number(g.getAttribute('data-high')) })),
      );
      assert.deepEqual(forest, [{ model: 'openai:m', difference, low: pf.interval.low, high: pf.interval.high }]);
      assert.ok(pf.interval.low < 2 / 11 && 2 / 11 < pf.interval.high);
      const stats = await page.$$eval('table.comparison-stats tbody tr td', (tds) => tds.map((td) => td.textContent));
      assert.deepEqual(stats.slice(0, 7), ['pass rate', '11', '0.545', '0.727', '+0.182', `[${sign(pf.interval.low)}, ${sign(pf.interval.high)}]`, '0.625']);

      const buckets = await page.$$eval('.buckets button', (bs) => bs.map((b) => [(b as PageNode).dataset['bucket'], Number((b as PageNode).dataset['count'])]));
      assert.deepEqual(buckets, [
        ['newly-failing', 1],
        ['newly-passing', 3],
        ['still-failing', 2],
        ['unchanged', 5],
        ['no-verdict', 1],
        ['error', 0],
      ]);
      const expected: Record<string, string[]> = {
        'newly-failing': idsWhere('P', 'F'),
        'newly-passing': idsWhere('F', 'P'),
        'still-failing': idsWhere('F', 'F'),
        unchanged: idsWhere('P', 'P'),
        'no-verdict': idsWhere('F', 'NV'),
      };
      for (const [bucket, ids] of Object.entries(expected)) {
        await page.click(`.buckets button[data-bucket="${bucket}"]`);
        const shown = await page.$$eval(`ul.sample-ids[data-bucket="${bucket}"] button`, (bs) => bs.map((b) => (b as PageNode).dataset['sample']));
        assert.deepEqual(shown, ids, bucket);
      }

      // A newly failing sample: run A's and run B's details side by side, their payloads as text.
      const failing = expected['newly-failing']?.[0] as string;
      const i = samples.findIndex((s) => s.id === failing);
      await page.click('.buckets button[data-bucket="newly-failing"]');
      await page.click(`ul.sample-ids button[data-sample="${failing}"]`);
      await page.waitForSelector(`.pair[data-sample="${failing}"] .side[data-side="B"] .detail`);
      const sides = await page.$$eval(`.pair[data-sample="${failing}"] .side`, (nodes) =>
        nodes.map((n) => ({ side: (n as PageNode).dataset['side'], verdict: n.querySelector('.verdict')?.textContent, output: n.querySelector('pre.raw-output')?.textContent, prompt: n.querySelector('.message pre')?.textContent })),
      );
      const prompt = String(samples[i]?.input[0]?.content);
      assert.deepEqual(sides, [
        { side: 'A', verdict: 'pass', output: answers[0]?.get(prompt), prompt },
        { side: 'B', verdict: 'fail', output: answers[1]?.get(prompt), prompt },
      ]);
      await page.screenshot({ path: join(SHOTS, 'compare.png'), fullPage: true });

      // The no-verdict sample: a bare <img onerror> in B, shown as text.
      await page.click('.buckets button[data-bucket="no-verdict"]');
      await page.click(`ul.sample-ids button[data-sample="${expected['no-verdict']?.[0]}"]`);
      await page.waitForSelector('.pair .side[data-side="B"] .detail');
      assert.equal(await page.textContent('.pair .side[data-side="B"] pre.raw-output'), IMG);

      assert.equal(await page.evaluate(() => window.pwned), undefined);
      assert.equal(await page.$$eval('img', (imgs) => imgs.length), 0);
      assert.equal(await page.$$eval('script', (s) => s.length), 5, 'no script element made from data');
      assert.deepEqual(dialogs, []);
      assert.deepEqual(errors, []);
      assert.deepEqual(requests, [`file://${file}`]);

      // The runs' own pages are still there: the overview lists both runs.
      await page.click('button[data-tab="overview"]');
      assert.deepEqual(await page.$$eval('#panel-overview article.run', (nodes) => nodes.map((n) => (n as PageNode).dataset['run'])), runs);
    } finally {
      await close();
    }
  });
});

test('compare -o --details 1: each run carries the details of a sample the comparison points at before any other', { skip: missing || skip }, async () => {
  const file = join(dir, 'few.html');
  const made = await assay(['compare', runs[0] as string, runs[1] as string, '-o', file, '--details', '1', '--db', db]);
  assert.equal(made.code, 0, made.stderr);
  const html = readFileSync(file, 'utf8');
  for (const run of [0, 1]) {
    const block = new RegExp(`<script type="application/json" id="assay-samples-${run}">([^<]*)</script>`).exec(html);
    const details = (JSON.parse(block?.[1] ?? '{}') as { details: Record<string, { sample: string }> }).details;
    // The first sample the comparison points at is item 1 (newly passing). Run B's plain
    // --details 1 would carry item 3 instead (its no verdict ranks before its fails).
    assert.deepEqual(Object.values(details).map((d) => d.sample), [samples[1]?.id], `run ${run}`);
  }
});

/** As the page writes a signed difference. */
function sign(v: number): string {
  return `${v > 0 ? '+' : v < 0 ? '−' : ''}${Math.abs(v).toFixed(3)}`;
}
