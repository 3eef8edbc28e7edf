import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { undeclaredMetrics } from '../../src/benchmarks/metric-declarations.js';
import { findTask } from '../../src/benchmarks/registry.js';
import { SHIPPED_HARM_RESOURCES_DIR } from '../../src/datasets/harm/index.js';
import { runAgreement } from '../../src/analysis/agreement.js';
import { startRun } from '../../src/runner/run.js';
import type { RunSpec } from '../../src/runner/run-spec.js';
import type { RunSummary } from '../../src/analysis/summary.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { chromiumMissing, launchChromium, watchPage } from '../../src/testing/chromium.js';
import { assay } from '../../src/testing/cli-harness.js';
import { startFakeOpenAIServer, type FakeAnswer, type FakeChatRequestBody } from '../../src/testing/fake-openai-server.js';
import { harmRoles } from '../../src/testing/harm-roles.js';
import { answerSummariesRequest } from '../../src/testing/summaries-answerer.js';
import { packageRoot } from '../../src/version.js';

/**
 * What the report's pages say to someone reading them for the first time, in real headless
 * Chromium, on four runs made here through loopback servers (no benchmark data needed):
 * - quality/groundedness on the shipped example file, judged 3 times: the judge scores each answer
 *   1, 2, 4 or 5 (never 3) by its text, its second repeat of a 5 says 4, and its first call for the
 *   bridge-date answer fails once (retried by the middleware);
 * - the same task with a judge whose every answer is unreadable: every sample no verdict;
 * - harm measurement on the shipped system-prompt-leakage resource (its human labels), judged 3 times;
 * - judged summaries of four made-up articles, the judge's first claims answer for one unreadable (re-asked).
 * Checked in the page: "no data" and why on the empty charts; every score level an axis tick;
 * axis numbers without trailing zeros; human-label agreement and agreement across repeats as
 * figures; calls named by step with retries numbered only when they are retries; runs in columns;
 * a row without details saying so itself; each metric's meaning in the tables. Screenshots are
 * kept in $ASSAY_SCREENSHOTS (default a temporary folder).
 */
const missing = chromiumMissing();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const document: any;
const SHOTS = process.env['ASSAY_SCREENSHOTS'] ?? join(tmpdir(), 'assay-report-pages-shots');
const ENGINE = { concurrency: 2, timeoutMs: 5000, retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1 }, cache: true, failFast: false };
const RUN_SEED = 5;
const LEVELS = [1, 2, 4, 5] as const;
const ARTICLES: Record<string, string> = {
  'news/bridge.txt': 'Bridge opens\n\nThe mayor opened the bridge on Monday. It cost four million dollars. Crowds watched.',
  'news/school.txt': 'School opens\n\nA new school opened in May. It has twelve classrooms and a library.',
  'sport/final.txt': 'Final won\n\nThe home team won the final. The weather was cold all day.',
  'sport/race.txt': 'Race day\n\nRunners crossed the line at noon. Thousands cheered the winners.',
};

let dir: string;
let db: string;
const runs: Record<'grounded' | 'unreadable' | 'harm' | 'summaries', string> = { grounded: '', unreadable: '', harm: '', summaries: '' };
const summaries: Record<string, RunSummary> = {};

const fenced = (prompt: string, label: string): string => new RegExp(`<<<${label} ([0-9a-f]+)>>>\\n([\\s\\S]*?)\\n<<<end ${label} \\1>>>`).exec(prompt)?.[2] ?? '';
/** The level the judge gives an answer: by its text, never 3. */
const levelOf = (answer: string): number => LEVELS[[...answer].reduce((n, c) => n + c.charCodeAt(0), 0) % LEVELS.length] as number;

async function runWith(spec: Omit<RunSpec, 'engine'>, respond: (body: FakeChatRequestBody) => FakeAnswer): Promise<string> {
  const server = await startFakeOpenAIServer({ respond, latencyMs: 1 });
  const store = await openSqliteStore(db);
  try {
    const summary = await startRun({ ...spec, engine: { ...ENGINE, openaiBaseURL: server.url } }, { store });
    summaries[summary.run] = summary;
    return summary.run;
  } finally {
    await store.close();
    await server.close();
  }
}

before(async () => {
  if (missing) return;
  dir = mkdtempSync(join(tmpdir(), 'assay-report-pages-'));
  db = join(dir, 'runs.db');
  const items = join(packageRoot, 'examples', 'groundedness.jsonl');
  const groundedSpec = { task: 'quality/groundedness', models: ['given:answers'], seed: RUN_SEED, options: { task: { items } }, dataDir: dir };
  const judge = { model: 'openai:judge', repeats: 3, format: 'json' as const, maxParseRetries: 1, temperature: 0 };
  let failedOnce = false;
  runs.grounded = await runWith({ ...groundedSpec, judge }, (body) => {
    const prompt = String(body.messages[0]?.content ?? '');
    const answer = fenced(prompt, 'answer');
    if (answer === 'It opened on Monday 3 March.' && !failedOnce) {
      failedOnce = true;
      throw new Error('planned server error');
    }
    const level = levelOf(answer);
    const repeat = Number(body['seed']) - RUN_SEED;
    return { text: JSON.stringify({ reasoning: 'read against the context', score: level === 5 && repeat === 1 ? 4 : level }) };
  });
  // Another judge model: the first run's judge answers are in the call cache under its own id.
  runs.unreadable = await runWith({ ...groundedSpec, judge: { ...judge, model: 'openai:mute-judge', repeats: 1 } }, () => ({ text: 'I would rather not say.' }));

  const resource = join(dir, 'leakage');
  cpSync(join(SHIPPED_HARM_RESOURCES_DIR, 'system-prompt-leakage'), resource, { recursive: true });
  runs.harm = await runWith({ task: `harm:${resource}`, models: ['openai:sut'], userModel: 'openai:user', judge, seed: RUN_SEED, options: {}, dataDir: resource }, harmRoles(RUN_SEED));

  const articles = join(dir, 'articles');
  for (const [id, text] of Object.entries(ARTICLES)) {
    mkdirSync(join(articles, id.split('/')[0] as string), { recursive: true });
    writeFileSync(join(articles, id), text);
  }
  const reasked = new Set<string>();
  runs.summaries = await runWith(
    { task: 'summaries/alignment', models: ['openai:writer-a'], seed: 0, options: { task: { articles, coverageQuestions: 2 } }, dataDir: dir, judge: { ...judge, repeats: 1 } },
    (body) => {
      const step = (body['response_format'] as { json_schema?: { name?: string } } | undefined)?.json_schema?.name;
      const prompt = String(body.messages.at(-1)?.content ?? '');
      // The first claims answer for the bridge article cannot be read: the judge is asked again.
      if (body.model === 'judge' && step === 'claims' && prompt.includes('The mayor opened the bridge') && !reasked.has('bridge')) {
        reasked.add('bridge');
        return { text: 'claims: one, two' };
      }
      return answerSummariesRequest(body);
    },
  );
  mkdirSync(SHOTS, { recursive: true });
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The text of the page's element, whitespace as the page has it. */
const textOf = async (page: Page, selector: string): Promise<string> => (await page.textContent(selector)) ?? '';

describe('the report pages a newcomer reads, in headless Chromium', () => {
  if (missing) {
    if (process.env['CI'] === 'true') test('Chromium is installed for the browser tests', () => assert.fail(missing));
    else test('browser tests', { skip: missing }, () => {});
    return;
  }

  test('the runs made here return only metrics their tasks declare', () => {
    for (const run of Object.values(runs)) {
      const summary = summaries[run] as RunSummary;
      const task = findTask(summary.task.startsWith('harm:') ? 'harm/system-prompt-leakage' : summary.task);
      // `judge_agreement` is the summary's own (JUDGE_AGREEMENT_DECLARATION), beside the task's.
      for (const [model, { metrics }] of Object.entries(summary.models)) assert.deepEqual(undeclaredMetrics(task.metricDeclarations, metrics), 'judge_agreement' in metrics ? ['judge_agreement'] : [], `${summary.task} ${model}`);
    }
  });

  let file: string;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  const seen: ReturnType<typeof watchPage>[] = [];
  before(async () => {
    file = join(dir, 'report.html');
    const made = await assay(['report', runs.grounded, runs.unreadable, runs.harm, runs.summaries, '-o', file, '--details', 'all', '--db', db]);
    assert.equal(made.code, 0, made.stderr);
    browser = await launchChromium({ viewport: { width: 1400, height: 900 } });
  });
  after(async () => {
    await browser?.close();
    for (const { dialogs, errors } of seen) {
      assert.deepEqual(dialogs, []);
      assert.deepEqual(errors, []);
    }
  });

  /** The report in a new page, on a tab. */
  async function open(tab: string): Promise<Page> {
    const page = await browser.context.newPage();
    // What is looked for is there once the page has painted: a missing element fails at once, not after 30 s.
    page.setDefaultTimeout(5000);
    seen.push(watchPage(page));
    await page.goto(`file://${file}`);
    await page.waitForFunction(() => document.documentElement.dataset['overview'] === 'painted');
    await page.click(`button[data-tab="${tab}"]`);
    return page;
  }

  test('several runs stand side by side, one column each', async () => {
    const page = await open('overview');
    const boxes = await page.$$eval('#panel-overview article.run', (nodes: { getBoundingClientRect(): { x: number; y: number } }[]) => nodes.map((n) => n.getBoundingClientRect()));
    assert.equal(boxes.length, 4);
    assert.ok(boxes.every((b) => b.y === boxes[0]?.y), `the runs start at one height: ${JSON.stringify(boxes)}`);
    assert.ok(boxes.every((b, i) => i === 0 || b.x > (boxes[i - 1]?.x ?? 0)), 'each run right of the one before');
    await page.screenshot({ path: join(SHOTS, 'columns-overview.png') });
  });

  test('each metric’s meaning: visible under its first row, a tooltip on every row', async () => {
    const page = await open('models');
    const grounded = `#panel-models article.run[data-run="${runs.grounded}"]`;
    const first = `${grounded} table.metrics tbody tr:first-child td:first-child`;
    assert.equal(await textOf(page, `${first} code`), 'defect_rate');
    assert.equal(await textOf(page, `${first} .meaning`), 'share of graded answers scored below --threshold (not grounded enough in their context) (share, lower is better; Wilson 95% interval)');
    const distributionRows = await page.$$eval(`${grounded} table.metrics tbody tr td:first-child`, (tds: { textContent: string; querySelector(s: string): { getAttribute(a: string): string | null } | null }[]) =>
      tds.filter((td) => td.textContent.startsWith('distribution.')).map((td) => [td.querySelector('.meaning') !== null, td.querySelector('[title]')?.getAttribute('title')]),
    );
    assert.ok(distributionRows.length >= 2);
    assert.deepEqual(distributionRows.map(([visible]) => visible), distributionRows.map((_, i) => i === 0), 'the meaning shown once per metric');
    assert.ok(distributionRows.every(([, title]) => title === 'graded answers at each score (the judge’s repeats combined: a strict majority, else the median, a tie taken away from the defect) (count)'));
    await page.screenshot({ path: join(SHOTS, 'models-meanings.png') });
  });

  test('charts: every level of the scale a tick, no empty axes but "no data" and why, axis numbers without trailing zeros', async () => {
    const page = await open('charts');
    const levels = await page.$$eval(`#panel-charts article.run[data-run="${runs.grounded}"] svg[data-chart="score-distribution"] rect`, (rects: { getAttribute(a: string): string | null }[]) =>
      rects.map((r) => [r.getAttribute('data-category'), Number(r.getAttribute('data-value'))]),
    );
    assert.deepEqual(levels.map(([c]) => c), ['1', '2', '3', '4', '5']);
    assert.equal(levels[2]?.[1], 0);
    const distribution = summaries[runs.grounded]?.models['given:answers']?.metrics['distribution'] as Record<string, number>;
    assert.equal(distribution['3'], undefined, 'no answer got 3');
    assert.deepEqual(levels.filter(([, n]) => n !== 0).map(([c, n]) => [c, n]), Object.entries(distribution).map(([c, n]) => [c, n]));
    const empty = `#panel-charts article.run[data-run="${runs.unreadable}"] [data-chart="score-distribution"]`;
    assert.equal(await page.$(`${empty} svg`), null, 'no empty axes');
    assert.equal(await textOf(page, `${empty} p.no-data`), 'No data — no sample has a verdict to draw (given:answers: 8 no verdict).');
    const ticks = await page.$$eval(`#panel-charts svg[data-chart="richness-by-category"] text.tick`, (texts: { textContent: string }[]) => texts.map((t) => t.textContent));
    assert.ok(ticks.length === 6 && ticks.every((t) => !/\.\d*0$/.test(t)), ticks.join(' '));
    assert.ok(ticks.some((t) => /^\d\.\d$/.test(t)), `a tick between whole numbers, trimmed: ${ticks.join(' ')}`);
    await page.screenshot({ path: join(SHOTS, 'charts.png'), fullPage: true });
    await page.locator(`#panel-charts [data-chart="richness-by-category"]`).first().screenshot({ path: join(SHOTS, 'chart-richness.png') });
  });

  test('judge health: agreement with human labels as figures, agreement across repeats shown where assay agreement finds repeats', async () => {
    const page = await open('judge');
    const labelText = await textOf(page, `#panel-judge .human-labels[data-model="openai:sut"]`);
    assert.ok(!labelText.includes('{') && !/\d\.\d{4,}/.test(labelText), labelText);
    // Each figure by its key and the meaning the task declares for it, formatted by its declared unit.
    assert.match(labelText, /exactshare where the judge’s severity is the human label\d+\.\d%/);
    assert.match(labelText, /kappaquadratic-weighted Cohen’s kappa: .*worse than chance\)(-?\d+(\.\d{1,3})?( \[[^\]]+\])?|n\/a)/);
    const agreementCell = async (run: string): Promise<string> =>
      page.$eval(`#panel-judge article.run[data-run="${run}"] table.judge tbody tr td:nth-child(8)`, (td: { textContent: string }) => td.textContent);
    const store = await openSqliteStore(db);
    try {
      const cli = await runAgreement(store, runs.harm, {});
      assert.ok((cli.models['openai:sut'] ?? []).some((r) => r.between === 'judge repeat 1 vs repeat 2'), 'assay agreement compares the repeats');
    } finally {
      await store.close();
    }
    // harmRoles: the instructions conversation reads 1, 3, 1 by repeat; the others agree.
    assert.match(await agreementCell(runs.harm), /^\d+\.\d%$/);
    assert.notEqual(await agreementCell(runs.harm), '100.0%');
    // Groundedness: every 5 read once as 4 by the second repeat.
    assert.match(await agreementCell(runs.grounded), /^\d+\.\d%$/);
    await page.screenshot({ path: join(SHOTS, 'judge.png'), fullPage: true });
    await page.locator(`#panel-judge article.run[data-run="${runs.harm}"]`).screenshot({ path: join(SHOTS, 'judge-harm.png') });
  });

  test('every call named by its step, a retry numbered only where a call failed and was made again', async () => {
    const page = await open('samples');
    await page.waitForSelector('#panel-samples table.samples');
    const openSample = async (run: string, id: string): Promise<string[]> => {
      await page.selectOption('#panel-samples [data-filter="run"]', String(Object.values(runs).indexOf(run)));
      await page.fill('#panel-samples [data-filter="id"]', id);
      await page.click('#panel-samples table.samples tbody tr:first-child button.link');
      await page.waitForFunction((sample: string) => document.querySelector('#sample-detail .detail')?.getAttribute('data-sample') === sample, id);
      return page.$$eval('#sample-detail details.call > summary', (nodes: { textContent: string }[]) => nodes.map((n) => n.textContent));
    };
    // The repeats go out together, so their order is the order they were made in; the retry comes right after the call it retried.
    const groundedCalls = await openSample(runs.grounded, 'bridge-date');
    assert.deepEqual(groundedCalls.map((c) => c.replace(/^\d+\. /, '')).sort(), [
      'judge · openai:judge · groundedness · judge repeat 1 · retry 1',
      'judge · openai:judge · groundedness · judge repeat 1 — error server',
      'judge · openai:judge · groundedness · judge repeat 2',
      'judge · openai:judge · groundedness · judge repeat 3',
      'model under test · answer',
    ]);
    const failed = groundedCalls.findIndex((c) => c.endsWith('— error server'));
    assert.match(groundedCalls[failed + 1] ?? '', /repeat 1 · retry 1$/);
    await page.screenshot({ path: join(SHOTS, 'calls-groundedness.png'), fullPage: true });
    const summaryCalls = await openSample(runs.summaries, 'news/bridge.txt');
    assert.ok(summaryCalls.includes('2. judge · openai:judge · claims'), summaryCalls.join('\n'));
    assert.ok(summaryCalls.includes('3. judge · openai:judge · claims · re-ask 1'), summaryCalls.join('\n'));
    assert.ok(summaryCalls.some((c) => c.includes('coverage questions')), summaryCalls.join('\n'));
    assert.ok(summaryCalls.every((c) => !/attempt|retry/.test(c)), 'no retry happened');
    await page.screenshot({ path: join(SHOTS, 'calls-summaries.png'), fullPage: true });
  });

  test('show --explain: each metric the run has, what it means, its unit and which way is better', async () => {
    const plain = await assay(['show', runs.grounded, '--db', db]);
    const explained = await assay(['show', runs.grounded, '--explain', '--db', db]);
    assert.equal(explained.code, 0, explained.stderr);
    assert.ok(explained.stdout.startsWith(plain.stdout), 'the summary unchanged, the meanings after it');
    // The judge repeated 3 times: its agreement is a figure, not n/a.
    assert.match(plain.stdout, /judge_agreement: \d+\.\d+%/);
    const lines = explained.stdout.slice(plain.stdout.length).trim().split('\n');
    assert.equal(lines[0], 'what the metrics mean:');
    assert.deepEqual(lines.slice(1).map((l) => l.trim().split(/\s+/)[0]), ['defect_rate', 'mean_score', 'distribution', 'mean_spread', 'no_majority_share', 'empty_answers', 'graded', 'no_verdict', 'n', 'errors', 'judge_agreement']);
    assert.match(lines[1] ?? '', /^ {2}defect_rate +share of graded answers scored below --threshold .*\(share, lower is better; Wilson 95% interval\)$/);
    const json = JSON.parse((await assay(['show', runs.grounded, '--explain', '--json', '--db', db])).stdout) as { metric_declarations: { name: string; unit: string; direction: string }[] };
    assert.deepEqual(json.metric_declarations[0], { name: 'defect_rate', meaning: 'share of graded answers scored below --threshold (not grounded enough in their context)', unit: 'share', direction: 'lower', interval: 'wilson' });
  });
});
