import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startRun } from '../../src/runner/run.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { chromiumMissing, launchChromium, watchPage } from '../../src/testing/chromium.js';
import { assay } from '../../src/testing/cli-harness.js';
import { startFakeOpenAIServer, type FakeAnswer, type FakeChatRequestBody, type FakeServer } from '../../src/testing/fake-openai-server.js';

/**
 * The defect rate corrected for the judge's error (PPI), from a run's own human reviews, in
 * `assay show`, `show --json`, `assay agreement` and the HTML report, end to end: a quality/groundedness run of 201
 * answers written here (`given:answers`, no model under test called), graded by a scripted judge on
 * a loopback server — 1 (a defect) when the answer holds the word PLANTED, 5 otherwise, and an
 * unreadable reply for the answer holding GARBLE (no verdict, no re-ask).
 *
 * Items item-000 … item-199: PLANTED when i mod 10 < 3 → the judge calls 60 of 200 defects;
 * item-200: GARBLE → no verdict. Reviews (the labels), 11 lines:
 * - item-000, item-071, item-152 (judge: defect) failed → person − judge = 0, 0, 0;
 * - item-033 (judge: clean) failed → +1;
 * - item-044, item-095, item-118, item-126, item-167, item-199 (judge: clean) passed → 0 × 6;
 * - item-200 (no verdict) failed → left out of the correction (the judge made no call on it).
 * By hand (metrics/corrected-defect-rate.ts): n = 10 labelled, N = 190 unlabelled.
 * - judge's rate over the 200 judged: 60/200 = 0.3 (= the raw defect_rate).
 * - unlabelled: 57 defects of 190 → 0.3, s² = 57·133/(190·189) = 0.211111.
 * - rectifier = (0·9 + 1)/10 = 0.1 → corrected rate 0.3 + 0.1 = 0.4.
 * - rectifier variance with the ½ pseudo counts: p₊ = (1 + ½)/11, p₋ = (0 + ½)/11 →
 *   p₊ + p₋ − (p₊ − p₋)² = 2/11 − (1/11)² = 0.173554.
 * - V = 0.211111/190 + 0.173554/10 = 0.00111111 + 0.0173554 = 0.0184665; half-width
 *   1.959964 · √V = 1.959964 · 0.135892 = 0.266343 → [0.133657, 0.666343], shown 13.4%–66.6%.
 * - labels to halve: c = V/4 = 0.00461663; c·n′² − (200c + B − a)·n′ + 200·B ≤ 0 with a = 0.211111,
 *   B = 0.173554: p = 0.885769, disc = 0.784587 − 0.640993 = 0.143594 → lower root
 *   (0.885769 − 0.378938)/(2c) = 54.89 → 55 reviews in all.
 * - the reviewed metrics (reviews in place of the judge's calls): defects 60 + item-033 +
 *   item-200 = 62 of 201 decided.
 */
const ITEMS = 201;
const REVIEWS: readonly (readonly [number, 'pass' | 'fail'])[] = [
  [0, 'fail'], [71, 'fail'], [152, 'fail'], [33, 'fail'],
  [44, 'pass'], [95, 'pass'], [118, 'pass'], [126, 'pass'], [167, 'pass'], [199, 'pass'],
  [200, 'fail'],
];
const Z = 1.959963984540054;
const idOf = (i: number): string => `item-${String(i).padStart(3, '0')}`;

let server: FakeServer;
let dir: string;
let db: string;
let runId: string;

const fenced = (prompt: string, label: string): string => new RegExp(`<<<${label} ([0-9a-f]+)>>>\\n([\\s\\S]*?)\\n<<<end ${label} \\1>>>`).exec(prompt)?.[2] ?? '';

function judge(body: FakeChatRequestBody): FakeAnswer {
  const answer = fenced(String(body.messages[0]?.content ?? ''), 'answer');
  if (answer.includes('GARBLE')) return { text: 'I would rather not say.' };
  const score = answer.includes('PLANTED') ? 1 : 5;
  return { text: JSON.stringify({ reasoning: score === 1 ? 'states what the context lacks' : 'supported', score }) };
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-corrected-'));
  db = join(dir, 'runs.db');
  server = await startFakeOpenAIServer({ respond: judge });
  const items = join(dir, 'items.jsonl');
  const line = (i: number): string => {
    const answer = i === 200 ? 'GARBLE' : i % 10 < 3 ? `The PLANTED figure is ${i}.` : `The figure is ${i}.`;
    return JSON.stringify({ id: idOf(i), question: `What is figure ${i}?`, context: `The figure is ${i}.`, answer });
  };
  writeFileSync(items, `${Array.from({ length: ITEMS }, (_, i) => line(i)).join('\n')}\n`);
  const store = await openSqliteStore(db);
  try {
    const summary = await startRun(
      {
        task: 'quality/groundedness',
        models: ['given:answers'],
        seed: 0,
        options: { task: { items } },
        dataDir: dir,
        engine: { concurrency: 4, timeoutMs: 5000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: true, openaiBaseURL: server.url },
        judge: { model: 'openai:judge', repeats: 1, format: 'json', maxParseRetries: 0, temperature: 0 },
      },
      { store },
    );
    runId = summary.run;
  } finally {
    await store.close();
  }
});

after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

type Corrected = { judge_rate: number; rate: number; ci95: { low: number; high: number }; labelled: number; unlabelled: number; rectifier: number; labels_to_halve: number | null; reviews_left_out: number };
type ShownModel = { metrics: Record<string, unknown>; reviewed?: { metrics: Record<string, unknown>; corrected_defect_rate?: Corrected } };

const close = (actual: number | undefined, expected: number, what: string): void => assert.ok(typeof actual === 'number' && Math.abs(actual - expected) < 1e-9, `${what}: ${actual} ≠ ${expected}`);

test('without reviews nothing is corrected: show, show --json and agreement say nothing of it', async () => {
  const shown = await assay(['show', runId, '--db', db]);
  assert.equal(shown.code, 0, shown.stderr);
  assert.doesNotMatch(shown.stdout, /corrected/);
  const model = (JSON.parse((await assay(['show', runId, '--json', '--db', db])).stdout) as { models: Record<string, ShownModel> }).models['given:answers'];
  assert.deepEqual([model?.metrics['defect_rate'], model?.metrics['graded'], model?.metrics['no_verdict']], [60 / 200, 200, 1]);
  assert.equal(model?.reviewed, undefined);
  const agreement = await assay(['agreement', runId, '--db', db]);
  assert.equal(agreement.code, 0, agreement.stderr);
  assert.match(agreement.stdout, /nothing to compare/);
  assert.doesNotMatch(agreement.stdout, /corrected|human reviews/);
});

test('with reviews on a subset: show, show --json, agreement and the HTML report give the corrected rate, its interval and the reviews to halve it, by hand', async () => {
  const reviews = join(dir, 'reviews.csv');
  writeFileSync(reviews, `item,verdict,note\n${REVIEWS.map(([i, v]) => `${idOf(i)},${v},`).join('\n')}\n`);
  const applied = await assay(['review', runId, '--apply', reviews, '--db', db]);
  assert.equal(applied.code, 0, applied.stderr);

  const json = await assay(['show', runId, '--json', '--db', db]);
  assert.equal(json.code, 0, json.stderr);
  const model = (JSON.parse(json.stdout) as { models: Record<string, ShownModel> }).models['given:answers'];
  const c = model?.reviewed?.corrected_defect_rate;
  assert.ok(c, `no corrected_defect_rate in ${json.stdout}`);
  close(c.judge_rate, 60 / 200, 'judge rate');
  assert.equal(c.judge_rate, model?.metrics['defect_rate'], 'the judge rate is the raw defect_rate');
  close(c.rate, 0.4, 'corrected rate');
  close(c.rectifier, 0.1, 'rectifier');
  const a = (57 * 133) / (190 * 189);
  const B = 2 / 11 - (1 / 11) ** 2;
  const half = Z * Math.sqrt(a / 190 + B / 10);
  close(c.ci95.low, 0.4 - half, 'low');
  close(c.ci95.high, 0.4 + half, 'high');
  assert.deepEqual([c.labelled, c.unlabelled, c.labels_to_halve, c.reviews_left_out], [10, 190, 55, 1]);
  assert.equal(model?.reviewed?.metrics['defect_rate'], 62 / 201);

  const shown = await assay(['show', runId, '--db', db]);
  assert.equal(shown.code, 0, shown.stderr);
  const line = "defect rate corrected for the judge's error: 40.0% [13.4%, 66.6%] beside the judge's 30.0% (PPI: 190 unreviewed + 10 reviewed items, the reviewed taken as a random subset; about 55 reviews in all would halve the interval; 1 review(s) of items the judge gave no verdict left out)";
  assert.ok(shown.stdout.includes(`    ${line}\n`), shown.stdout);

  // assay agreement without --labels: the reviews are the labels; the same figure, the same line.
  const agreement = await assay(['agreement', runId, '--db', db]);
  assert.equal(agreement.code, 0, agreement.stderr);
  assert.ok(agreement.stdout.includes(`  judge vs human reviews (assay review):\n    ${line}\n`), agreement.stdout);
  const agreementJson = JSON.parse((await assay(['agreement', runId, '--json', '--db', db])).stdout) as { reviewed?: Record<string, Corrected> };
  assert.deepEqual(agreementJson.reviewed?.['given:answers'], c);

  // The report's data carries the summary's figure; the page shows it in the models area, as text.
  const html = join(dir, 'report.html');
  const report = await assay(['report', runId, '-o', html, '--db', db]);
  assert.equal(report.code, 0, report.stderr);
  if (chromiumMissing()) return;
  const { context, close: closeBrowser } = await launchChromium();
  try {
    const page = await context.newPage();
    const { requests, dialogs, errors } = watchPage(page);
    await page.goto(`file://${html}`);
    await page.click('nav.tabs button[data-tab="models"]');
    const shownInPage = await page.$$eval('#panel-models ul.corrected-rate li', (lis) => lis.map((li) => li.textContent));
    assert.deepEqual(shownInPage, [`given:answers: ${line.replace("judge's error:", 'judge’s error').replace("the judge's", 'the judge’s')}`]);
    assert.deepEqual([dialogs, errors, requests.filter((r) => !r.startsWith('file://'))], [[], [], []]);
  } finally {
    await closeBrowser();
  }
});
