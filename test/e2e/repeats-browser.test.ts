import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startViewServer, type ViewServer } from '../../src/report/view/view-server.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { chromiumMissing, launchChromium, watchPage } from '../../src/testing/chromium.js';
import { assay } from '../../src/testing/cli-harness.js';
import { requestKey, startFakeOpenAIServer, type FakeAnswer, type FakeChatRequestBody, type FakeServer } from '../../src/testing/fake-openai-server.js';

/**
 * A run with `--repeats 3` in the HTML report and in `assay view`, in real headless Chromium: the
 * cases task through the CLI on a loopback server whose model under test answers by the request's
 * seed (run seed 10: repeats 1/3…3/3 ask with seeds 10…12, and each answer names its seed), so
 * every row's verdict, output and calls are known ahead. q1 is checked by `contains`, q2 by a
 * rubric the judge (`openai:judge`) grades, so q2's answers each have a judge call of their own.
 * Checked: each sample row labelled with its repeat, the repeat filter, a detail saying which
 * answer it is and showing that answer's calls alone (the model's and the judge's, by their
 * seeds), and its sample's other answers one click away; a run without repeats in the same store
 * shows no repeat anywhere.
 */
const missing = chromiumMissing();
const SHOTS = process.env['ASSAY_SCREENSHOTS'] ?? join(tmpdir(), 'assay-repeats-shots');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const document: any;
type PageNode = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const CASES = `- id: q1
  input: Question one?
  expect:
    - contains: yes
- id: q2
  input: Question two?
  expect:
    - rubric: Says yes.
`;

/** Each question's answer word by repeat (seed 10, 11, 12). */
const WORDS: Readonly<Record<string, readonly string[]>> = {
  'Question one?': ['yes', 'no', 'yes'], // pass fail pass (contains)
  'Question two?': ['no', 'yes', 'yes'], // fail pass pass (judged)
};
const VERDICTS: Readonly<Record<string, readonly string[]>> = { q1: ['pass', 'fail', 'pass'], q2: ['fail', 'pass', 'pass'] };
const QUESTION: Readonly<Record<string, string>> = { q1: 'Question one?', q2: 'Question two?' };
const answerOf = (sample: string, repeat: number): string => `${WORDS[QUESTION[sample] as string]?.[repeat]} (seed ${10 + repeat})`;

const fenced = (prompt: string, label: string): string => new RegExp(`<<<${label} ([0-9a-f]+)>>>\\n([\\s\\S]*?)\\n<<<end ${label} \\1>>>`).exec(prompt)?.[2] ?? '';

function respond(body: FakeChatRequestBody): FakeAnswer {
  if (body.model === 'judge') {
    const answer = fenced(String(body.messages[0]?.content ?? ''), 'response');
    return { text: `Judging "${answer}".\n${answer.startsWith('yes') ? 'pass' : 'fail'}` };
  }
  // A run without repeats sends no seed of its own: it answers as the first repeat.
  const given = (body as { seed?: unknown }).seed;
  const seed = given === undefined ? 10 : given;
  const words = WORDS[requestKey(body)];
  if (!words || typeof seed !== 'number') return { text: `unexpected request (seed ${String(seed)})` };
  return { text: `${words[seed - 10] ?? 'unexpected'} (seed ${seed})` };
}

let server: FakeServer;
let dir: string;
let db: string;
let repeated: string;
let plain: string;
const env = { OPENAI_API_KEY: 'sk-test-repeats-browser' };

before(async () => {
  if (missing) return;
  dir = mkdtempSync(join(tmpdir(), 'assay-repeats-browser-'));
  mkdirSync(SHOTS, { recursive: true });
  db = join(dir, 'runs.db');
  const casesFile = join(dir, 'cases.yaml');
  writeFileSync(casesFile, CASES);
  server = await startFakeOpenAIServer({ respond });
  const runArgs = (...more: string[]): string[] => ['run', 'cases', '--file', casesFile, '-m', 'openai:bot', '--judge', 'openai:judge', '--judge-parse-retries', '0', '--base-url', server.url, '--db', db, '--max-retries', '0', '--seed', '10', '--json', ...more];
  const made = await assay(runArgs('--repeats', '3'), env);
  assert.equal(made.code, 0, made.stderr);
  repeated = (JSON.parse(made.stdout) as { run: string }).run;
  const once = await assay(runArgs(), env);
  assert.equal(once.code, 0, once.stderr);
  plain = (JSON.parse(once.stdout) as { run: string }).run;
});
after(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const painted = (page: Page): Promise<unknown> => page.waitForFunction(() => document.documentElement.dataset['overview'] === 'painted');

async function openSamples(page: Page): Promise<void> {
  await painted(page);
  await page.click('button[data-tab="samples"]');
  await page.waitForSelector('#panel-samples table.samples');
}

/** The sample browser's header and rows as shown: [sample, model, repeat, verdict] per row. */
async function shownRows(page: Page): Promise<{ header: string[]; rows: string[][]; repeats: (string | undefined)[] }> {
  return page.evaluate(() => ({
    header: [...document.querySelectorAll('#panel-samples table.samples thead th')].map((th: PageNode) => th.textContent),
    rows: [...document.querySelectorAll('#panel-samples table.samples tbody tr')].map((tr: PageNode) => [...tr.querySelectorAll('td')].slice(0, 4).map((td: PageNode) => td.textContent)),
    repeats: [...document.querySelectorAll('#panel-samples table.samples tbody tr')].map((tr: PageNode) => tr.dataset['repeat']),
  }));
}

/** The detail shown now: its title, repeat, output, the repeat strip and every call's reply. */
async function shownDetail(page: Page): Promise<{ title: string; repeat: string | undefined; output: string; strip: string[]; current: string | null; callsTitle: string; replies: string[] }> {
  return page.evaluate(() => {
    const detail = document.querySelector('#sample-detail .detail');
    const parts = [...detail.querySelectorAll('section.part')] as PageNode[];
    const calls = parts.find((p) => (p.querySelector('h4')?.textContent ?? '').startsWith('Every call'));
    return {
      title: detail.querySelector('h3')?.childNodes[0]?.textContent ?? '',
      repeat: detail.dataset['repeat'],
      output: detail.querySelector('.raw-output')?.textContent ?? '',
      strip: [...detail.querySelectorAll('.repeats .repeat')].map((n: PageNode) => n.textContent),
      current: detail.querySelector('.repeats .current')?.dataset['repeat'] ?? null,
      callsTitle: calls?.querySelector('h4')?.textContent ?? '',
      replies: [...(calls?.querySelectorAll('details.call') ?? [])].map((c: PageNode) => `${c.dataset['role']}: ${c.querySelector('.raw-output')?.textContent ?? ''}`),
    };
  });
}

/** The expected calls of one answer: the model's reply, and for q2 the judge's reading of it. */
function repliesOf(sample: string, repeat: number): string[] {
  const answer = answerOf(sample, repeat);
  const judge = sample === 'q2' ? [`judge: Judging "${answer}".\n${answer.startsWith('yes') ? 'pass' : 'fail'}`] : [];
  return [`test: ${answer}`, ...judge];
}

const expectedRows = ['q1', 'q2'].flatMap((sample) => [0, 1, 2].map((r) => [sample, 'openai:bot', `repeat ${r + 1}/3`, VERDICTS[sample]?.[r] ?? '']));

describe('a run with repeats in headless Chromium', () => {
  if (missing) {
    if (process.env['CI'] === 'true') test('Chromium is installed for the browser tests', () => assert.fail(missing));
    else test('browser tests', { skip: missing }, () => {});
    return;
  }

  test('the HTML report: every row labelled with its repeat, a repeat filter, a detail of one answer with its own calls and its sample’s other answers; a run without repeats shows none', async () => {
    const file = join(dir, 'repeats.html');
    const plainFile = join(dir, 'plain.html');
    for (const [run, out] of [[repeated, file], [plain, plainFile]] as const) {
      const made = await assay(['report', run, '-o', out, '--details', 'all', '--db', db], env);
      assert.equal(made.code, 0, made.stderr);
    }
    const { context, close } = await launchChromium();
    try {
      const page = await context.newPage();
      const seen = watchPage(page);
      await page.goto(`file://${file}`);
      await openSamples(page);

      const shown = await shownRows(page);
      assert.deepEqual(shown.header, ['sample', 'model', 'repeat', 'verdict', 'error', 'review', 'cached', 'details']);
      assert.deepEqual(shown.rows, expectedRows);
      assert.deepEqual(shown.repeats, ['0', '1', '2', '0', '1', '2']);

      // The filter: the second answers only.
      await page.selectOption('#panel-samples [data-filter="repeat"]', '1');
      assert.deepEqual((await shownRows(page)).rows, [expectedRows[1], expectedRows[4]]);
      await page.selectOption('#panel-samples [data-filter="repeat"]', '-1');
      assert.equal((await shownRows(page)).rows.length, 6);

      // q2's second answer: said in the title, its own output, its own two calls (the model's, the judge's), its siblings listed.
      await page.click('#panel-samples tr[data-row="4"] button.link');
      await page.waitForFunction(() => document.querySelector('#sample-detail .detail')?.getAttribute('data-repeat') === '1');
      let detail = await shownDetail(page);
      assert.equal(detail.title, 'q2 · openai:bot · repeat 2/3');
      assert.equal(detail.output, answerOf('q2', 1));
      assert.equal(detail.callsTitle, 'Every call of this answer · repeat 2/3 (2)');
      assert.deepEqual(detail.replies, repliesOf('q2', 1));
      assert.deepEqual(detail.strip, ['repeat 1/3 fail', 'repeat 2/3 pass', 'repeat 3/3 pass']);
      assert.equal(detail.current, '1');
      await page.screenshot({ path: join(SHOTS, 'repeats-report.png'), fullPage: true });

      // The strip opens the sample's other answers.
      await page.click('#sample-detail .repeats button[data-repeat="0"]');
      await page.waitForFunction(() => document.querySelector('#sample-detail .detail')?.getAttribute('data-repeat') === '0');
      detail = await shownDetail(page);
      assert.equal(detail.title, 'q2 · openai:bot · repeat 1/3');
      assert.equal(detail.output, answerOf('q2', 0));
      assert.deepEqual(detail.replies, repliesOf('q2', 0));
      assert.equal(detail.current, '0');
      // q1 is not judged: each answer has its one call.
      await page.click('#panel-samples tr[data-row="2"] button.link');
      await page.waitForFunction(() => document.querySelector('#sample-detail .detail')?.getAttribute('data-sample') === 'q1');
      detail = await shownDetail(page);
      assert.deepEqual([detail.title, detail.output, detail.replies], ['q1 · openai:bot · repeat 3/3', answerOf('q1', 2), repliesOf('q1', 2)]);
      assert.deepEqual([seen.dialogs, seen.errors], [[], []]);

      // The run without repeats: no repeat column, filter, attribute or label.
      await page.goto(`file://${plainFile}`);
      await openSamples(page);
      const once = await shownRows(page);
      assert.deepEqual(once.header, ['sample', 'model', 'verdict', 'error', 'review', 'cached', 'details']);
      assert.deepEqual(once.rows, [['q1', 'openai:bot', 'pass', ''], ['q2', 'openai:bot', 'fail', '']]);
      assert.deepEqual(once.repeats, [undefined, undefined]);
      assert.equal(await page.$('#panel-samples [data-filter="repeat"]'), null);
      await page.click('#panel-samples tr[data-row="1"] button.link');
      await page.waitForSelector('#sample-detail .detail');
      detail = await shownDetail(page);
      assert.deepEqual([detail.title, detail.repeat, detail.strip, detail.callsTitle], ['q2 · openai:bot', undefined, [], 'Every call (2)']);
      assert.deepEqual(detail.replies, repliesOf('q2', 0));
      assert.deepEqual([seen.dialogs, seen.errors], [[], []]);
    } finally {
      await close();
    }
  });

  test('assay view: the rows labelled, and each answer’s detail read on demand with its own result and calls', async () => {
    let viewStore: Store | undefined;
    let view: ViewServer | undefined;
    const { context, close } = await launchChromium();
    try {
      viewStore = await openSqliteStore(db);
      view = await startViewServer({ store: viewStore, onError: (e) => assert.fail(String(e)) });
      const origin = view.url.replace(/\/$/, '');
      const page = await context.newPage();
      const seen = watchPage(page);
      await page.goto(`${origin}/report?runs=${repeated}`);
      await openSamples(page);
      assert.deepEqual((await shownRows(page)).rows, expectedRows);
      for (const [row, sample, repeat] of [[5, 'q2', 2], [3, 'q2', 0], [1, 'q1', 1]] as const) {
        await page.click(`#panel-samples tr[data-row="${row}"] button.link`);
        await page.waitForFunction(([id, r]) => {
          const shown = document.querySelector('#sample-detail .detail');
          return shown?.getAttribute('data-sample') === id && shown?.getAttribute('data-repeat') === r;
        }, [sample, String(repeat)] as const);
        const detail = await shownDetail(page);
        assert.equal(detail.title, `${sample} · openai:bot · repeat ${repeat + 1}/3`);
        assert.equal(detail.output, answerOf(sample, repeat));
        assert.deepEqual(detail.replies, repliesOf(sample, repeat));
        assert.deepEqual(detail.strip, [0, 1, 2].map((r) => `repeat ${r + 1}/3 ${VERDICTS[sample]?.[r]}`));
        assert.ok(seen.requests.includes(`${origin}/api/runs/${repeated}/samples/${row}`), `row ${row} was fetched on demand`);
      }
      assert.deepEqual([seen.dialogs, seen.errors], [[], []]);
    } finally {
      await close();
      await view?.close();
      await viewStore?.close();
    }
  });
});
