import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { wilsonInterval } from '../../src/metrics/intervals.js';
import { chromiumMissing, launchChromium, watchPage } from '../../src/testing/chromium.js';
import { pairedMeanDifference } from '../../src/metrics/paired-mean.js';
import { pairedProportionDifference } from '../../src/metrics/paired-proportions.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { assay } from '../../src/testing/cli-harness.js';
import { requestKey, startFakeOpenAIServer, type FakeAnswer, type FakeChatRequestBody, type FakeServer } from '../../src/testing/fake-openai-server.js';

/**
 * `--repeats 4` end to end (issue 24 §2): the cases task through the CLI on a loopback
 * OpenAI-shaped server whose model under test answers each question by the request's seed, so
 * every repeat's pass or fail is known ahead. The run's seed is 10: repeats 0…3 ask with seeds
 * 10…13. The judge (`openai:judge`) grades the rubric case: "yes" passes, "maybe" it cannot
 * decide (no verdict), anything else fails.
 */
const CASES = `- id: q1
  input: Question one?
  expect:
    - contains: yes
- id: q2
  input: Question two?
  expect:
    - contains: yes
- id: q3
  input: Question three?
  expect:
    - contains: yes
- id: q4
  input: Question four?
  expect:
    - contains: yes
- id: q5
  input: Question five?
  expect:
    - rubric: Says yes.
`;

/** The answer to each question by seed 10, 11, 12, 13 (repeat 0…3). */
const ANSWERS: Readonly<Record<string, readonly string[]>> = {
  'Question one?': ['yes', 'yes', 'yes', 'yes'], //    pass pass pass pass
  'Question two?': ['yes', 'no', 'yes', 'yes'], //     pass fail pass pass
  'Question three?': ['no', 'no', 'no', 'no'], //      fail fail fail fail
  'Question four?': ['no', 'yes', 'no', 'yes'], //     fail pass fail pass
  'Question five?': ['yes', 'maybe', 'yes', 'yes'], // pass (no verdict) pass pass
};

const fenced = (prompt: string, label: string): string => new RegExp(`<<<${label} ([0-9a-f]+)>>>\\n([\\s\\S]*?)\\n<<<end ${label} \\1>>>`).exec(prompt)?.[2] ?? '';

/**
 * For `compare`: a baseline model and a candidate answering eight questions, 3 repeats each (seeds
 * 10, 11, 12), each answer passing when it is "yes".
 */
const COMPARED: Readonly<Record<string, { readonly base: readonly string[]; readonly cand: readonly string[] }>> = {
  'Compared one?': { base: ['yes', 'yes', 'yes'], cand: ['yes', 'yes', 'yes'] }, //   1   → 1      0
  'Compared two?': { base: ['yes', 'yes', 'yes'], cand: ['no', 'no', 'no'] }, //      1   → 0     −1
  'Compared three?': { base: ['yes', 'yes', 'yes'], cand: ['no', 'no', 'no'] }, //    1   → 0     −1
  'Compared four?': { base: ['yes', 'yes', 'yes'], cand: ['no', 'no', 'no'] }, //     1   → 0     −1
  'Compared five?': { base: ['yes', 'yes', 'no'], cand: ['yes', 'no', 'no'] }, //     2/3 → 1/3   −1/3
  'Compared six?': { base: ['no', 'no', 'no'], cand: ['no', 'no', 'no'] }, //         0   → 0      0
  'Compared seven?': { base: ['yes', 'no', 'yes'], cand: ['yes', 'yes', 'yes'] }, //  2/3 → 1     +1/3
  'Compared eight?': { base: ['yes', 'yes', 'yes'], cand: ['yes', 'yes', 'yes'] }, // 1   → 1      0
};

function respond(body: FakeChatRequestBody): FakeAnswer {
  if (body.model === 'base' || body.model === 'cand') {
    const seed = (body as { seed?: unknown }).seed;
    return { text: (typeof seed === 'number' && COMPARED[requestKey(body)]?.[body.model][seed - 10]) || `unexpected request (seed ${String(seed)})` };
  }
  if (body.model === 'judge') {
    const answer = fenced(String(body.messages[0]?.content ?? ''), 'response');
    return { text: answer === 'yes' ? 'It says yes.\npass' : answer === 'maybe' ? 'I cannot tell.' : 'It does not say yes.\nfail' };
  }
  const seed = (body as { seed?: unknown }).seed;
  const answers = ANSWERS[requestKey(body)];
  if (!answers || typeof seed !== 'number') return { text: `unexpected request (seed ${String(seed)})` };
  return { text: answers[seed - 10] ?? `unexpected seed ${seed}` };
}

let server: FakeServer;
let dir: string;
let casesFile: string;
const env = { OPENAI_API_KEY: 'sk-test-repeats' };

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-repeats-'));
  casesFile = join(dir, 'cases.yaml');
  writeFileSync(casesFile, CASES);
  server = await startFakeOpenAIServer({ respond });
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const runArgs = (db: string, ...more: string[]): string[] => ['run', 'cases', '--file', casesFile, '-m', 'openai:bot', '--judge', 'openai:judge', '--judge-parse-retries', '0', '--base-url', server.url, '--db', db, '--max-retries', '0', '--seed', '10', ...more];

interface Exported {
  sample_id: string;
  model: string;
  repeat?: number;
  score: string;
}

test('--repeats 4: each repeat its own seed, call and result; export rows carry the repeat; pass@4 and pass^4 as counted by hand; a no-verdict repeat leaves its sample out; the cache answers a second run; a resume cannot change k', async () => {
  const db = join(dir, 'runs.db');
  const run = await assay(runArgs(db, '--repeats', '4', '--json'), env);
  assert.equal(run.code, 0, run.stderr);
  const summary = JSON.parse(run.stdout) as { run: string; models: Record<string, { metrics: Record<string, unknown>; counts: Record<string, unknown> }> };

  // The model under test was asked each question once per seed 10…13: 5 × 4 calls, no two alike.
  const bot = server.requests.map((r) => r.body as FakeChatRequestBody & { seed?: number }).filter((b) => b.model === 'bot');
  assert.equal(bot.length, 20);
  assert.deepEqual(new Set(bot.map((b) => `${requestKey(b)}#${b.seed}`)).size, 20);
  assert.deepEqual([...new Set(bot.map((b) => b.seed))].sort(), [10, 11, 12, 13]);

  // Every call is stored with its repeat, the judge's too: the model's by its seed (10 + repeat), and
  // each sample's calls of a repeat are that repeat's (one model call, and the judge's for q5).
  const store = await openSqliteStore(db);
  try {
    const calls = await store.calls(summary.run);
    for (const call of calls.filter((c) => c.role === 'test')) assert.equal(call.repeat ?? 0, ((call.request as { settings: { seed: number } }).settings.seed) - 10);
    const judged = calls.filter((c) => c.role === 'judge');
    assert.deepEqual(judged.map((c) => `${c.sampleId}#${c.repeat ?? 0}`).sort(), ['q5#0', 'q5#1', 'q5#2', 'q5#3']);
    assert.equal(calls.filter((c) => 'repeat' in c && c.repeat === 0).length, 0, 'repeat 0 leaves the field out');
  } finally {
    await store.close();
  }

  // export: one row per sample and repeat, with its repeat.
  const exported = await assay(['export', summary.run, '--db', db], env);
  assert.equal(exported.code, 0, exported.stderr);
  const rows = exported.stdout.trim().split('\n').map((line) => JSON.parse(line) as Exported);
  assert.deepEqual(rows.map((r) => `${r.sample_id}#${r.repeat}:${r.score}`), [
    'q1#0:pass', 'q1#1:pass', 'q1#2:pass', 'q1#3:pass',
    'q2#0:pass', 'q2#1:fail', 'q2#2:pass', 'q2#3:pass',
    'q3#0:fail', 'q3#1:fail', 'q3#2:fail', 'q3#3:fail',
    'q4#0:fail', 'q4#1:pass', 'q4#2:fail', 'q4#3:pass',
    'q5#0:pass', 'q5#1:no-verdict', 'q5#2:pass', 'q5#3:pass',
  ]);
  // CSV has the column after model.
  const csv = await assay(['export', summary.run, '--db', db, '--format', 'csv'], env);
  assert.equal(csv.code, 0, csv.stderr);
  assert.match(csv.stdout.split('\n')[0] ?? '', /^sample_id,task,model,repeat,prompt,/);

  // By hand from the rows above. q5 has a repeat without a verdict: left out, counted apart.
  // Decided samples q1–q4 (4): at least one pass — q1, q2, q4 → pass@4 = 3/4 = 0.75;
  // all four pass — q1 only → pass^4 = 1/4 = 0.25; passes 4 + 3 + 0 + 2 = 9 of 16 answers → 0.5625.
  const metrics = summary.models['openai:bot']?.metrics ?? {};
  assert.equal(metrics['pass@k'], 0.75);
  assert.equal(metrics['pass^k'], 0.25);
  assert.equal(metrics['repeat_pass_rate'], 0.5625);
  assert.equal(metrics['repeat_undecided'], 1);
  const at = wilsonInterval(3, 4);
  const all = wilsonInterval(1, 4);
  assert.deepEqual(metrics['pass@k_ci95'], { low: at?.low, high: at?.high });
  assert.deepEqual(metrics['pass^k_ci95'], { low: all?.low, high: all?.high });
  // The task's own metrics read repeat 0, as a run without repeats: q1, q2, q5 pass; q3, q4 fail → 3/5.
  assert.equal(metrics['pass_rate'], 0.6);
  // Counts are of answers: 20 results, one no verdict, none pending.
  const counts = summary.models['openai:bot']?.counts ?? {};
  assert.deepEqual([counts['samples'], counts['done'], counts['pending'], counts['no_verdict']], [5, 20, 0, 1]);

  // show prints the figures.
  const show = await assay(['show', summary.run, '--db', db], env);
  assert.equal(show.code, 0, show.stderr);
  assert.match(show.stdout, /pass\^k: 25\.00%/);
  assert.match(show.stdout, /pass@k: 75\.00%/);

  // rescore: every repeat scored again and stored as its own (repeat 0 is not given a later repeat's score).
  const rescored = await assay(['rescore', summary.run, '--json', '--db', db], env);
  assert.equal(rescored.code, 0, rescored.stderr);
  const after = (JSON.parse(rescored.stdout) as { summary?: { models: Record<string, { metrics: Record<string, unknown> }> }; models?: Record<string, { metrics: Record<string, unknown> }> });
  const rescoredMetrics = (after.summary ?? after).models?.['openai:bot']?.metrics ?? {};
  assert.deepEqual([rescoredMetrics['pass_rate'], rescoredMetrics['pass@k'], rescoredMetrics['pass^k'], rescoredMetrics['repeat_pass_rate']], [0.6, 0.75, 0.25, 0.5625]);
  const reexported = await assay(['export', summary.run, '--db', db], env);
  assert.equal(reexported.stdout, exported.stdout);

  // A resume cannot change the number of repeats.
  const refused = await assay(['resume', summary.run, '--db', db, '--repeats', '2'], env);
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(refused.stderr, /asks each sample 4 time\(s\); a resume cannot change that to --repeats 2/);

  // The same run again: every answer of every repeat from the call cache, no new call to the model.
  const before = server.requests.length;
  const again = await assay(runArgs(db, '--repeats', '4', '--json'), env);
  assert.equal(again.code, 0, again.stderr);
  const second = JSON.parse(again.stdout) as { models: Record<string, { metrics: Record<string, unknown>; counts: Record<string, unknown> }> };
  assert.equal(server.requests.slice(before).filter((r) => (r.body as FakeChatRequestBody).model === 'bot').length, 0);
  assert.equal(second.models['openai:bot']?.counts['cached'], 20);
  assert.equal(second.models['openai:bot']?.metrics['pass^k'], 0.25);
});

test('--estimate counts the model under test K times per sample', async () => {
  const db = join(dir, 'estimate.db');
  const once = await assay(runArgs(db, '--estimate', '--json'), env);
  const four = await assay(runArgs(db, '--estimate', '--json', '--repeats', '4'), env);
  assert.equal(once.code, 0, once.stderr);
  assert.equal(four.code, 0, four.stderr);
  const calls = (text: string): number => (JSON.parse(text) as { models: { calls: number }[] }).models[0]?.calls ?? -1;
  // 5 cases: 5 calls once, 20 with four repeats.
  assert.equal(calls(once.stdout), 5);
  assert.equal(calls(four.stdout), 20);
  assert.equal((JSON.parse(four.stdout) as { repeats?: number }).repeats, 4);
});

test('a run stopped mid-repeats: the resume calls only the repeats without a result and ends with every sample’s k answers', async () => {
  const db = join(dir, 'resume.db');
  let refuse = true;
  // A refused key on the first call of repeat 2 (seed 12) stops the model (fail-fast): repeats 2 and 3 stay unfinished.
  const flaky = await startFakeOpenAIServer({ respond, faults: (ctx) => (refuse && (ctx.body as { model?: unknown; seed?: unknown }).model === 'bot' && (ctx.body as { seed?: unknown }).seed === 12 ? { type: 'status', status: 401 } : undefined) });
  try {
    const args = ['run', 'cases', '--file', casesFile, '-m', 'openai:bot', '--judge', 'openai:judge', '--judge-parse-retries', '0', '--base-url', flaky.url, '--db', db, '--max-retries', '0', '--seed', '10', '--repeats', '4', '--concurrency', '1', '--json'];
    const first = await assay(args, env);
    assert.equal(first.code, 130, first.stderr);
    const runId = (JSON.parse(first.stdout) as { run: string }).run;
    const rowsOf = async (): Promise<string[]> => {
      const out = await assay(['export', runId, '--db', db], env);
      assert.equal(out.code, 0, out.stderr);
      return out.stdout.trim().split('\n').map((line) => JSON.parse(line) as Exported).map((r) => `${r.sample_id}#${r.repeat}:${r.score}`);
    };
    // One call at a time, repeat by repeat: repeats 0 and 1 of the five samples have their results (10), nothing of repeats 2 and 3.
    const before = await rowsOf();
    assert.deepEqual(before.map((r) => r.replace(/:.*/, '')), ['q1#0', 'q1#1', 'q2#0', 'q2#1', 'q3#0', 'q3#1', 'q4#0', 'q4#1', 'q5#0', 'q5#1']);
    refuse = false;
    const asked = flaky.requests.length;
    const resumed = await assay(['resume', runId, '--db', db, '--base-url', flaky.url, '--repeats', '4', '--json'], env);
    assert.equal(resumed.code, 0, resumed.stderr);
    // Only the 10 missing answers were asked for, each with its own seed (12 or 13).
    const bot = flaky.requests.slice(asked).map((r) => r.body as FakeChatRequestBody & { seed?: number }).filter((b) => b.model === 'bot');
    assert.deepEqual(bot.map((b) => `${requestKey(b)}#${b.seed}`).sort(), ['one', 'two', 'three', 'four', 'five'].flatMap((n) => [`Question ${n}?#12`, `Question ${n}?#13`]).sort());
    assert.equal((await rowsOf()).length, 20);
    const metrics = (JSON.parse(resumed.stdout) as { models: Record<string, { metrics: Record<string, unknown> }> }).models['openai:bot']?.metrics ?? {};
    // The same answers as the first test's run: pass@4 = 3/4, pass^4 = 1/4 (counted there by hand).
    assert.deepEqual([metrics['pass@k'], metrics['pass^k'], metrics['repeat_undecided']], [0.75, 0.25, 1]);
  } finally {
    await flaky.close();
  }
});

/** The two runs with repeats the compare test made, for the page test after it. */
let comparedRuns: { db: string; base: string; cand: string } | undefined;

test('compare two runs with repeats: paired by sample (each sample’s share of passing repeats), a bootstrap over samples; --fail-on-regression decides on that interval', async () => {
  const db = join(dir, 'compare.db');
  const file = join(dir, 'compared.yaml');
  writeFileSync(file, Object.keys(COMPARED).map((input, i) => `- id: c${i + 1}\n  input: ${input}\n  expect:\n    - contains: yes\n`).join(''));
  const runOf = async (model: string): Promise<string> => {
    const r = await assay(['run', 'cases', '--file', file, '-m', `openai:${model}`, '--base-url', server.url, '--db', db, '--max-retries', '0', '--seed', '10', '--repeats', '3', '--json'], env);
    assert.equal(r.code, 0, r.stderr);
    return (JSON.parse(r.stdout) as { run: string }).run;
  };
  const base = await runOf('base');
  const cand = await runOf('cand');
  comparedRuns = { db, base, cand };

  // By hand from the table above: per-sample shares A → B and their differences, 8 samples.
  const shares: [number, number][] = [[1, 1], [1, 0], [1, 0], [1, 0], [2 / 3, 1 / 3], [0, 0], [2 / 3, 1], [1, 1]];
  // Differences 0, −1, −1, −1, −1/3, 0, +1/3, 0: mean −3/8. Sign-flip over the 5 non-zero ones
  // (1, 1, 1, 1/3, 1/3), |Σ| = 3: the three 1s of one sign and the 1/3s not both against them,
  // 3 of 4 for each sign: 6 of 32 assignments → p = 0.1875.
  const compared = await assay(['compare', base, cand, '--db', db, '--json'], env);
  assert.equal(compared.code, 0, compared.stderr);
  interface Pf { decided: number; rateA: number; rateB: number; difference: number; interval: { low: number; high: number }; intervalMethod: string; test: { p: number; exact: boolean }; buckets: Record<string, string[]> }
  const c = JSON.parse(compared.stdout) as { comparisons: { samples: Record<string, number>; pairing: Record<string, unknown>; passFail: Pf }[] };
  const m = c.comparisons[0];
  assert.ok(m);
  assert.deepEqual(m.samples, { shared: 8, onlyInA: 0, onlyInB: 0, inputDiffers: 0, errors: 0 });
  assert.deepEqual(m.pairing, { unit: 'sample', repeatsA: 3, repeatsB: 3, repeatErrors: 0, description: 'paired by sample: 8 samples × up to 3 repeats, cluster bootstrap over samples' });
  const pf = m.passFail;
  assert.equal(pf.intervalMethod, 'cluster-percentile-bootstrap');
  assert.equal(pf.decided, 8);
  assert.ok(Math.abs(pf.difference + 3 / 8) < 1e-12, String(pf.difference));
  assert.ok(Math.abs(pf.rateA - 19 / 24) < 1e-12 && Math.abs(pf.rateB - 10 / 24) < 1e-12, `${pf.rateA} ${pf.rateB}`);
  assert.deepEqual([pf.test.p, pf.test.exact], [0.1875, true]);
  assert.deepEqual(pf.buckets, { newlyFailing: ['c2', 'c3', 'c4', 'c5'], newlyPassing: ['c7'], stillFailing: ['c6'], unchanged: ['c1', 'c8'], noVerdict: [] });
  const cluster = pairedMeanDifference(shares, { seed: 'compare:openai:base:openai:cand:pass' }).interval;
  assert.deepEqual(pf.interval, cluster);
  assert.ok(cluster && cluster.high < 0, JSON.stringify(cluster));

  // The text says the unit and the test.
  const text = await assay(['compare', base, cand, '--db', db], env);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /\n  paired by sample: 8 samples × up to 3 repeats, cluster bootstrap over samples\n/);
  assert.match(text.stdout, /\n  pass rate\s+8\s+0\.792\s+0\.417\s+−0\.375\s+\[−\d\.\d{3}, −0\.\d{3}\]\s+0\.188\s+sign-flip \(exact\)\n/);

  // The whole cluster interval is below 0: a regression at margin 0 (exit 4), the gate's interval the cluster one.
  const strict = await assay(['compare', base, cand, '--db', db, '--fail-on-regression', '0', '--json'], env);
  assert.equal(strict.code, 4, strict.stderr);
  const gate = (JSON.parse(strict.stdout) as { regression: { results: { outcome: string; interval: unknown; reason: string }[] } }).regression.results[0];
  assert.deepEqual([gate?.outcome, gate?.interval], ['fail', cluster]);
  assert.match(gate?.reason ?? '', /over 8 paired sample\(s\), each over its repeats \(cluster bootstrap over samples\)/);

  // Counting the 24 (sample, repeat) pairs as independent units (as compare did before) gives a
  // narrower interval; with a margin between the two upper bounds that one would call a
  // regression, the interval over samples does not (exit 0).
  const table = { both: 0, firstOnly: 0, secondOnly: 0, neither: 0 };
  for (const { base: a, cand: b } of Object.values(COMPARED)) {
    for (let r = 0; r < 3; r++) {
      const [pa, pb] = [a[r] === 'yes', b[r] === 'yes'];
      if (pa && pb) table.both++;
      else if (pa) table.firstOnly++;
      else if (pb) table.secondOnly++;
      else table.neither++;
    }
  }
  const naive = pairedProportionDifference(table).interval;
  assert.ok(naive && naive.high < cluster.high, `per answer ${JSON.stringify(naive)}, per sample ${JSON.stringify(cluster)}`);
  const margin = -(naive.high + cluster.high) / 2;
  const lenient = await assay(['compare', base, cand, '--db', db, '--fail-on-regression', String(margin)], env);
  assert.equal(lenient.code, 0, lenient.stderr);
  assert.match(lenient.stdout, /regression \(margin [\d.]+, run \S+ the baseline\):/);
});

test('compare -o on runs with repeats: the page says the unit and the test over samples', { skip: chromiumMissing() }, async () => {
  const compared = comparedRuns;
  assert.ok(compared, 'the compare test made the runs');
  const file = join(dir, 'compare.html');
  const made = await assay(['compare', compared.base, compared.cand, '--db', compared.db, '-o', file], env);
  assert.equal(made.code, 0, made.stderr);
  const { context, close } = await launchChromium();
  try {
    const page = await context.newPage();
    const { errors } = watchPage(page);
    await page.goto(`file://${file}`);
    // Runs in the page, where `document` is the page's (this file is compiled without the DOM types).
    await page.waitForFunction(() => (globalThis as unknown as { document: { documentElement: { dataset: Record<string, string> } } }).document.documentElement.dataset['overview'] === 'painted');
    assert.equal(await page.textContent('p.pairing[data-unit="sample"]'), 'paired by sample: 8 samples × up to 3 repeats, cluster bootstrap over samples');
    const stats = await page.$$eval('table.comparison-stats tbody tr td', (tds) => tds.map((td) => td.textContent));
    assert.deepEqual(stats.slice(0, 5), ['pass rate', '8', '0.792', '0.417', '−0.375']);
    assert.match(stats[7] ?? '', /^sign-flip \(exact\) on the per-sample differences; higher in B 1, lower 4$/);
    const buckets = await page.$$eval('.buckets button', (bs) => bs.map((b) => b.textContent));
    assert.deepEqual(buckets.slice(0, 4), ['newly failing (lower pass share in B): 4', 'newly passing (higher pass share in B): 1', 'still failing (no pass on either side): 1', 'unchanged (the same share, some passing): 2']);
    // A sample opened from a bucket shows every answer of it on each side, each labelled with its repeat (not one repeat's alone).
    await page.click('.buckets button[data-bucket="newly-failing"]');
    await page.click('ul.sample-ids button.link');
    await page.waitForSelector('.pair .side[data-side="B"] .detail');
    for (const side of ['A', 'B']) {
      const answers = await page.$$eval(`.pair .side[data-side="${side}"] .detail`, (ds) => ds.map((d) => [(d as unknown as { dataset: Record<string, string> }).dataset['repeat'], d.querySelector('h3')?.textContent ?? '']));
      assert.deepEqual(answers.map(([r]) => r), ['0', '1', '2'], `side ${side}`);
      assert.deepEqual(answers.map(([, h]) => /repeat \d\/\d/.exec(h ?? '')?.[0]), ['repeat 1/3', 'repeat 2/3', 'repeat 3/3'], `side ${side}`);
    }
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
