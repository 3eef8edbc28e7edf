import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startRun } from '../../src/runner/run.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { assay } from '../../src/testing/cli-harness.js';
import { startFakeOpenAIServer, type FakeAnswer, type FakeChatRequestBody, type FakeServer } from '../../src/testing/fake-openai-server.js';
import { packageRoot } from '../../src/version.js';
import { kappaInterval } from '../../src/metrics/agreement.js';

/**
 * quality/groundedness end to end through real HTTP, on the shipped example file
 * (examples/groundedness.jsonl, 8 items): the file's own answers (`given:answers`) beside a model
 * that answers with the context's first sentence (`openai:answerer`); the judge (`openai:judge`)
 * scores 1 when the answer states one of three facts planted in the file that its context does not
 * hold ("2.4 million", "wifi", "180 degrees"), else 5.
 */
const PLANTED = ['2.4 million', 'wifi', '180 degrees'];
let server: FakeServer;
let dir: string;

const fenced = (prompt: string, label: string): string => new RegExp(`<<<${label} ([0-9a-f]+)>>>\\n([\\s\\S]*?)\\n<<<end ${label} \\1>>>`).exec(prompt)?.[2] ?? '';

function answer(body: FakeChatRequestBody): FakeAnswer {
  const prompt = String(body.messages[0]?.content ?? '');
  if (body.model === 'answerer') return { text: `${(/Context:\n([^.]*\.)/.exec(prompt)?.[1] ?? '').trim()}` };
  if (body.model === 'broken-judge') throw new Error('the judge is down');
  const given = fenced(prompt, 'answer');
  const score = PLANTED.some((fact) => given.includes(fact)) ? 1 : 5;
  return { text: JSON.stringify({ reasoning: score === 1 ? 'states a fact the context lacks' : 'every statement is in the context', score }) };
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-grounded-'));
  server = await startFakeOpenAIServer({ respond: answer, latencyMs: 2 });
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

test('groundedness: the file\'s answers and a model\'s, graded 1–5 by the judge; defect rate, mean and distribution by hand', async () => {
  const store = await openSqliteStore(join(dir, 'g.db'));
  try {
    const summary = await startRun(
      {
        task: 'quality/groundedness',
        models: ['given:answers', 'openai:answerer'],
        seed: 0,
        options: { task: { items: join(packageRoot, 'examples', 'groundedness.jsonl') } },
        dataDir: dir,
        engine: { concurrency: 4, timeoutMs: 5000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: true, openaiBaseURL: server.url },
        judge: { model: 'openai:judge', repeats: 1, format: 'json', maxParseRetries: 1, temperature: 0 },
      },
      { store },
    );
    // The file: bridge-cost, library-wifi and recipe-temp state a planted fact → 1; the other five → 5.
    const given = summary.models['given:answers']?.metrics;
    assert.equal(given?.['defect_rate'], 3 / 8);
    assert.equal(given?.['mean_score'], (5 * 5 + 3 * 1) / 8);
    assert.deepEqual(given?.['distribution'], { '1': 3, '5': 5 });
    assert.deepEqual([given?.['graded'], given?.['no_verdict'], given?.['errors']], [8, 0, 0]);
    // The model quotes the context: every answer grounded.
    assert.equal(summary.models['openai:answerer']?.metrics['defect_rate'], 0);
    // Only the model under test and the judge went over the wire: 8 answers, 16 gradings.
    const bodies = server.requests.map((r) => r.body as FakeChatRequestBody);
    assert.deepEqual([bodies.filter((b) => b.model === 'answerer').length, bodies.filter((b) => b.model === 'judge').length], [8, 16]);
    const calls = await store.calls(summary.run, 'bridge-cost');
    assert.deepEqual(calls.map((c) => [c.modelId, c.role, c.step ?? null]).sort(), [['given:answers', 'judge', 'groundedness'], ['given:answers', 'test', null], ['openai:answerer', 'judge', 'groundedness'], ['openai:answerer', 'test', null]]);
  } finally {
    await store.close();
  }
});

/** The example file's own answers graded by `judge` (one repeat, no re-ask), stored in `store`. */
const givenAnswersRun = (store: Store, judge: string) =>
  startRun(
    {
      task: 'quality/groundedness',
      models: ['given:answers'],
      seed: 0,
      options: { task: { items: join(packageRoot, 'examples', 'groundedness.jsonl') } },
      dataDir: dir,
      engine: { concurrency: 2, timeoutMs: 5000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: true, openaiBaseURL: server.url },
      judge: { model: judge, repeats: 1, format: 'json', maxParseRetries: 0, temperature: 0 },
    },
    { store },
  );

test('a judge that fails leaves every answer in error: counted in the metrics\' errors as in the summary\'s counts, never a no verdict', async () => {
  const store = await openSqliteStore(join(dir, 'broken.db'));
  try {
    const summary = await givenAnswersRun(store, 'openai:broken-judge');
    const model = summary.models['given:answers'];
    assert.equal(model?.counts.errors, 8);
    assert.deepEqual([model?.metrics['graded'], model?.metrics['no_verdict'], model?.metrics['errors'], model?.metrics['defect_rate']], [0, 0, 8, null]);
  } finally {
    await store.close();
  }
});

test('assay review on groundedness: reviewed fails are defects and reviewed passes are not, in the CLI summary and the report\'s reviewed table', async () => {
  const db = join(dir, 'reviewed.db');
  const store = await openSqliteStore(db);
  let runId: string;
  try {
    const summary = await givenAnswersRun(store, 'openai:judge');
    runId = summary.run;
    assert.equal(summary.models['given:answers']?.metrics['defect_rate'], 3 / 8);
  } finally {
    await store.close();
  }
  // Three answers the judge graded 5 failed by a reviewer (changed), bridge-cost (graded 1) failed
  // too (agrees), library-wifi (graded 1) passed (changed): defects bridge-cost, recipe-temp and
  // the three → 5 of 8; the grades standing: bridge-cost's and recipe-temp's 1, bridge-users' and
  // library-hours' 5 → mean 3.
  const reviews = join(dir, 'grounded-review.csv');
  writeFileSync(reviews, 'item,verdict,note\nbridge-date,fail,x\nrecipe-time,fail,x\ntrial-result,fail,x\nbridge-cost,fail,\nlibrary-wifi,pass,the context implies it\n');
  const applied = await assay(['review', runId, '--apply', reviews, '--db', db]);
  assert.equal(applied.code, 0, applied.stderr);
  assert.match(applied.stdout, /applied 5 review\(s\) .*: 4 verdict\(s\) differ from the stored ones/);
  assert.match(applied.stdout, /reviewed by humans: 5 item\(s\), 4 verdict\(s\) changed/);
  const json = await assay(['show', runId, '--json', '--db', db]);
  const model = (JSON.parse(json.stdout) as { models: Record<string, { metrics: Record<string, unknown>; reviewed: { metrics: Record<string, unknown>; changed: number } }> }).models['given:answers'];
  assert.equal(model?.metrics['defect_rate'], 3 / 8, 'the judge-only metrics stay the judge\'s');
  assert.equal(model?.reviewed.metrics['defect_rate'], 5 / 8);
  assert.equal(model?.reviewed.metrics['mean_score'], 3);
  assert.deepEqual(model?.reviewed.metrics['distribution'], { '1': 2, '5': 2 });
  const report = await assay(['report', runId, '--json', '--db', db]);
  assert.equal(report.code, 0, report.stderr);
  const table = (JSON.parse(report.stdout) as { runs: { tables: { reviewed?: unknown } }[] }).runs[0]?.tables.reviewed;
  assert.match(JSON.stringify(table), /"defect_rate"/);
  assert.ok(JSON.stringify(table).includes(String(5 / 8)), `the report's reviewed table holds the reviewed defect rate: ${JSON.stringify(table)}`);
});

test('assay agreement takes a groundedness run with human labels: exact, ±1, weighted kappa by hand with the summary\'s interval, confusion matrix; a constant rater has no kappa ("—")', async () => {
  const db = join(dir, 'agreement.db');
  const store = await openSqliteStore(db);
  let runId: string;
  try {
    runId = (await givenAnswersRun(store, 'openai:judge')).run;
  } finally {
    await store.close();
  }
  // Judge vs person: bridge-cost (1, 1), library-wifi (1, 2), bridge-date (5, 5), library-hours (5, 4).
  // Exact 2/4, within ±1 4/4. Quadratic weights w = 1 − (i − j)²/16: observed 1 + 15/16 + 1 + 15/16 = 3.875;
  // rows (judge) 1: 2, 5: 2; columns (person) 1, 2, 4, 5: 1 each → E = ½ in each of those cells; weighted
  // expected per row: ½ (1 + 15/16 + 7/16 + 0) = 19/16, twice → 2.375; κ = (3.875 − 2.375)/(4 − 2.375) = 12/13.
  const labels = join(dir, 'grounded-labels.csv');
  writeFileSync(labels, 'sampleId,severity\nbridge-cost,1\nlibrary-wifi,2\nbridge-date,5\nlibrary-hours,4\n');
  const json = await assay(['agreement', runId, '--labels', labels, '--json', '--db', db]);
  assert.equal(json.code, 0, json.stderr);
  const report = JSON.parse(json.stdout) as { scale: unknown; models: Record<string, { between: string; agreement: { n: number; exact: number; relaxed: number; kappa: number; kappaInterval: { low: number; high: number } | null; confusion: { counts: number[][] } } }[]> };
  assert.deepEqual(report.scale, { min: 1, max: 5 });
  const [byLabels] = report.models['given:answers'] ?? [];
  assert.deepEqual([byLabels?.agreement.n, byLabels?.agreement.exact, byLabels?.agreement.relaxed], [4, 0.5, 1]);
  assert.ok(Math.abs((byLabels?.agreement.kappa ?? NaN) - 12 / 13) < 1e-12, String(byLabels?.agreement.kappa));
  assert.deepEqual(byLabels?.agreement.confusion.counts, [[1, 1, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 1, 1]]);
  // The interval is the one computation of these pairs (in any order), as a run summary would show it.
  assert.deepEqual(byLabels?.agreement.kappaInterval, kappaInterval([[5, 4], [5, 5], [1, 2], [1, 1]], { min: 1, max: 5 }));
  // Corrected defect rate (defect: below 3). The four labelled items agree with the judge on defect or
  // not: rectifier 0, its error shares read ½/5 = 0.1 each → variance 0.2. Unlabelled: bridge-users 5,
  // recipe-time 5, recipe-temp 1, trial-result 5 → 1/4, s² = (4/3)(3/16) = 0.25. θ = 0.25, variance
  // 0.25/4 + 0.2/4 = 0.1125, half-width 1.959964 · √0.1125 = 0.657392; the judge's own rate 3/8.
  const corrected = (byLabels as unknown as { corrected: { judgeRate: number; rate: number; interval: { low: number; high: number }; labelled: number; unlabelled: number; labelsToHalve: number | null } }).corrected;
  assert.deepEqual([corrected.judgeRate, corrected.rate, corrected.labelled, corrected.unlabelled, corrected.labelsToHalve, corrected.interval.low], [3 / 8, 0.25, 4, 4, null, 0]);
  assert.ok(Math.abs(corrected.interval.high - (0.25 + 1.959963984540054 * Math.sqrt(0.1125))) < 1e-12, String(corrected.interval.high));
  const shown = await assay(['agreement', runId, '--labels', labels, '--db', db]);
  assert.match(shown.stdout, /defect rate: judge 37\.5% over 8 judged; corrected for the judge's error 25\.0% \[0\.0%, 90\.7%\] \(PPI: 4 unlabelled \+ 4 labelled, taken as a random subset; labels alone cannot halve the interval here\)/);
  // Labels only on answers the judge scored 5: the judge is one level throughout → kappa has no value, printed "—".
  writeFileSync(labels, 'sampleId,severity\nbridge-date,5\nlibrary-hours,4\nbridge-users,3\n');
  const text = await assay(['agreement', runId, '--labels', labels, '--db', db]);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /n 3, exact 0\.333, within ±1 0\.667, weighted kappa — \(undefined: one rater gave every item the same level/);
});
