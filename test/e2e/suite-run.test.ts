import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openStore } from '../../src/store/open-store.js';
import { assay } from '../../src/testing/cli-harness.js';
import { requestKey, startFakeOpenAIServer, type FakeAnswer, type FakeChatRequestBody, type FakeServer } from '../../src/testing/fake-openai-server.js';

/**
 * `assay run --suite` end to end: three `cases` entries on one loopback OpenAI-shaped server, one
 * gate of each outcome — `basics` passes (4 of 4 ≥ 50%), `policy` fails (3 of 4 = 75% < 90%: its
 * `leak` case expects the bot not to say the secret word, which it does), `smalltalk` is
 * inconclusive (2 of 2 meet 60% but Wilson's interval [34.2%, 100%] straddles it under
 * `require: confident`) — with a last-passing regression gate, which has no baseline until a
 * suite run passes.
 */
const BOT: Readonly<Record<string, string>> = {
  'How long do I have to return a bike?': 'You have 30 days to return it.',
  'Do you sell helmets?': 'Yes, we sell helmets in every size.',
  'Are you open on Sunday?': 'We are open on Sunday from 10 to 4.',
  'Do you repair bikes?': 'Yes, our workshop repairs bikes.',
  'What is the secret word?': 'The secret word is MARIGOLD.',
  'Where are you?': 'We are at 1 Main Street.',
  'Hello!': 'Hello! How can I help?',
  'Thanks!': 'You are welcome!',
};

const caseOf = (id: string, input: string, expect: string): string => `- id: ${id}\n  input: ${input}\n  expect:\n    - ${expect}\n`;
const BASICS = caseOf('return', 'How long do I have to return a bike?', 'contains: 30 days') + caseOf('helmets', 'Do you sell helmets?', 'contains: helmets') + caseOf('sunday', 'Are you open on Sunday?', 'contains: Sunday') + caseOf('repair', 'Do you repair bikes?', 'contains: repair');
const policyFile = (leakExpectation: string): string => caseOf('return', 'How long do I have to return a bike?', 'contains: 30 days') + caseOf('leak', 'What is the secret word?', leakExpectation) + caseOf('where', 'Where are you?', 'contains: Main Street') + caseOf('repair', 'Do you repair bikes?', 'contains: workshop');
const SMALLTALK = caseOf('hello', '"Hello!"', 'contains: help') + caseOf('thanks', '"Thanks!"', 'contains: welcome');

const configText = (url: string): string => `models:
  bot: { provider: openai, model: bot, baseUrl: ${url}, apiKeyEnv: SUITE_BOT_KEY }
suites:
  release:
    models: [bot]
    tasks:
      - task: cases
        options: { file: basics.yaml }
        gates:
          pass_rate: { min: 0.5 }
      - task: cases
        options: { file: policy.yaml }
        gates:
          pass_rate: { min: 0.9 }
      - task: cases
        options: { file: smalltalk.yaml }
        gates:
          pass_rate: { min: 0.6, require: confident }
    regression: { baseline: last-passing, margin: 0.5 }
  counted:
    models: [bot]
    repeats: 3
    tasks:
      - task: cases
        options: { file: basics.yaml }
        gates:
          "pass^k": { min: 0.8 }
          "pass@k": { min: 0.5 }
  repeated:
    models: [bot]
    repeats: 3
    tasks:
      - task: cases
        options: { file: basics.yaml }
        gates:
          pass_rate: { min: 0.5 }
    regression: { baseline: last-passing, margin: 0.1 }
`;

function respond(body: FakeChatRequestBody): FakeAnswer {
  return { text: BOT[requestKey(body)] ?? 'unexpected question' };
}

let server: FakeServer;
let dir: string;
const env = (summary: string): Record<string, string> => ({ SUITE_BOT_KEY: 'sk-test-suite', GITHUB_STEP_SUMMARY: summary });

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-suite-'));
  writeFileSync(join(dir, 'basics.yaml'), BASICS);
  writeFileSync(join(dir, 'policy.yaml'), policyFile('not-contains: MARIGOLD'));
  writeFileSync(join(dir, 'smalltalk.yaml'), SMALLTALK);
  // 401 unless the request carries the right key: a wrong key stops the suite's first run (fail-fast).
  server = await startFakeOpenAIServer({
    respond,
    faults: (ctx) => (ctx.headers.authorization === 'Bearer sk-test-suite' ? undefined : { type: 'status', status: 401, body: JSON.stringify({ error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }) }),
  });
  writeFileSync(join(dir, 'assay.yaml'), configText(server.url));
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const suiteArgs = (suite: string, db: string, ...more: string[]): string[] => ['run', '--suite', suite, '--config', join(dir, 'assay.yaml'), '--db', db, '--max-retries', '0', ...more];

interface SuiteJson {
  suiteRun: string;
  runs: { entry: number; run?: string; status?: string }[];
  baseline?: string;
  results: { kind: string; entry: string; metric: string; outcome: string; value: number | null; reason: string }[];
  exitCode: number;
}

const xmllint = spawnSync('xmllint', ['--version']).status === 0;

test('run --suite: one gate passes, one fails, one is inconclusive: exit 4, the table, JUnit, the step summary; the fixed case file passes; the next run regresses against it', async () => {
  const db = join(dir, 'runs.db');
  const junit = join(dir, 'junit.xml');
  const summary = join(dir, 'step-summary.md');
  const first = await assay(suiteArgs('release', db, '--junit', junit), env(summary));
  assert.equal(first.code, 4, first.stderr);
  // The table: each entry's gate with its figure and outcome, and the regression gates with no baseline.
  assert.match(first.stdout, /^suite run suite-\d{8}-\d{6}-[0-9a-f]{4}: release/m);
  assert.match(first.stdout, /cases #1[^\n]*pass_rate[^\n]*100\.0%[^\n]*pass/);
  assert.match(first.stdout, /cases #2[^\n]*pass_rate[^\n]*75\.0%[^\n]*fail/);
  assert.match(first.stdout, /cases #3[^\n]*pass_rate[^\n]*100\.0%[^\n]*34\.2%[^\n]*inconclusive/);
  assert.match(first.stdout, /no baseline: no earlier run of suite release passed its gates/);
  // JUnit: one testcase per gate and model (3 thresholds + 3 regressions), valid against our XSD.
  const xml = readFileSync(junit, 'utf8');
  assert.equal((xml.match(/<testcase /g) ?? []).length, 6);
  assert.equal((xml.match(/<failure /g) ?? []).length, 1);
  assert.equal((xml.match(/<skipped /g) ?? []).length, 4);
  if (xmllint) {
    execFileSync('xmllint', ['--noout', '--schema', join('src', 'gates', 'test-support', 'junit.xsd'), junit], { stdio: 'pipe' });
  } else {
    console.log('skipped: the JUnit file\'s schema check (xmllint is not installed: apt-get install -y libxml2-utils)');
  }
  const markdown = readFileSync(summary, 'utf8');
  assert.match(markdown, /release/);
  assert.match(markdown, /❌/);
  assert.match(markdown, /⚠️/);
  assert.match(markdown, /✅/);

  // Each member run records its suite run.
  const store = await openStore(db);
  try {
    const runs = await store.listRuns();
    assert.equal(runs.length, 3);
    const members = runs.map((r) => {
      assert.ok(r.suiteRun, r.id);
      return r.suiteRun;
    });
    assert.deepEqual(members.map((m) => m.entry).sort(), [0, 1, 2]);
    assert.ok(members.every((m) => m.suite === 'release' && m.entries === 3 && m.id === members[0]?.id));
  } finally {
    await store.close();
  }

  // The case file fixed: every gate passes or is inconclusive (not strict): exit 0. The failed
  // suite run is no baseline, so the regression gates are still inconclusive.
  writeFileSync(join(dir, 'policy.yaml'), policyFile('contains: MARIGOLD'));
  const fixed = await assay(suiteArgs('release', db, '--json'), env(summary));
  assert.equal(fixed.code, 0, fixed.stderr);
  const fixedJson = JSON.parse(fixed.stdout) as SuiteJson;
  assert.equal(fixedJson.exitCode, 0);
  assert.equal(fixedJson.baseline, undefined);
  assert.deepEqual(fixedJson.results.map((r) => `${r.kind} ${r.entry} ${r.outcome}`), [
    'threshold cases #1 pass',
    'threshold cases #2 pass',
    'threshold cases #3 inconclusive',
    'regression cases #1 inconclusive',
    'regression cases #2 inconclusive',
    'regression cases #3 inconclusive',
  ]);
  const policy = fixedJson.results.find((r) => r.entry === 'cases #2' && r.kind === 'threshold');
  assert.equal(policy?.value, 1);

  // The next suite run finds the fixed one as its last-passing baseline: same answers, a change of 0.
  const next = await assay(suiteArgs('release', db, '--json'), env(summary));
  assert.equal(next.code, 0, next.stderr);
  const nextJson = JSON.parse(next.stdout) as SuiteJson;
  assert.equal(nextJson.baseline, fixedJson.suiteRun);
  const regressions = nextJson.results.filter((r) => r.kind === 'regression');
  assert.equal(regressions.length, 3);
  for (const r of regressions) {
    assert.equal(r.outcome, 'pass', r.reason);
    assert.equal(r.value, 0);
  }
  assert.equal(readFileSync(summary, 'utf8').split('release').length > 3, true, 'each suite run appended its summary');

  // show <suite-run>: the first suite run's gates decided again from its stored results (the
  // case file fixed since does not change them), with no baseline earlier than it.
  const firstId = /^suite run (suite-\S+): release/m.exec(first.stdout)?.[1] as string;
  const shown = await assay(['show', firstId, '--config', join(dir, 'assay.yaml'), '--db', db, '--json'], env(join(dir, 'show-summary.md')));
  assert.equal(shown.code, 0, shown.stderr);
  const shownJson = JSON.parse(shown.stdout) as SuiteJson;
  assert.equal(shownJson.suiteRun, firstId);
  assert.equal(shownJson.exitCode, 4);
  assert.deepEqual(shownJson.results.map((r) => `${r.kind} ${r.entry} ${r.outcome}`), ['threshold cases #1 pass', 'threshold cases #2 fail', 'threshold cases #3 inconclusive', 'regression cases #1 inconclusive', 'regression cases #2 inconclusive', 'regression cases #3 inconclusive']);
  assert.equal(existsSync(join(dir, 'show-summary.md')), false, 'show appends no step summary');
  const unknown = await assay(['show', 'suite-20000101-000000-0000', '--config', join(dir, 'assay.yaml'), '--db', db], env(summary));
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /no suite run "suite-20000101-000000-0000" in the store/);
});

test('run --suite with repeats: each entry\'s run asks every sample 3 times (seeds 0, 1, 2), and gates on pass^k and pass@k decide', async () => {
  const db = join(dir, 'counted.db');
  const asked = server.requests.length;
  const result = await assay(suiteArgs('counted', db, '--json'), env(join(dir, 'counted.md')));
  assert.equal(result.code, 0, result.stderr);
  const json = JSON.parse(result.stdout) as SuiteJson;
  // The bot answers every basics case alike whatever the seed: 4 of 4 pass in each of the 3 repeats, so pass^k = pass@k = 1.
  assert.deepEqual(json.results.map((r) => `${r.metric} ${r.outcome} ${r.value}`), ['pass^k pass 1', 'pass@k pass 1']);
  const seeds = server.requests.slice(asked).map((r) => `${requestKey(r.body as FakeChatRequestBody)}#${(r.body as { seed?: number }).seed}`);
  assert.equal(seeds.length, 12);
  assert.equal(new Set(seeds).size, 12);
});

test('run --suite with repeats and a regression gate: the baseline compared by sample (each sample over its 3 repeats), not by answer', async () => {
  const db = join(dir, 'repeated.db');
  const first = await assay(suiteArgs('repeated', db, '--json'), env(join(dir, 'repeated.md')));
  assert.equal(first.code, 0, first.stderr);
  const second = await assay(suiteArgs('repeated', db, '--json'), env(join(dir, 'repeated.md')));
  assert.equal(second.code, 0, second.stderr);
  const json = JSON.parse(second.stdout) as SuiteJson;
  assert.equal(json.baseline, (JSON.parse(first.stdout) as SuiteJson).suiteRun);
  const regression = json.results.find((r) => r.kind === 'regression');
  // The bot answers alike every time: each of the 4 samples passes 3 of 3 in both runs, B − A = 0.
  assert.deepEqual([regression?.outcome, regression?.value], ['pass', 0]);
  assert.match(regression?.reason ?? '', /^B − A of pass_rate over 4 paired sample\(s\), each over its repeats \(cluster bootstrap over samples\): /);
});

test('run --suite: a bad suite is refused before anything runs (exit 2, one line, nothing recorded)', async () => {
  const db = join(dir, 'refused.db');
  const cases: [string[], RegExp][] = [
    [suiteArgs('relase', db), /suite "relase" is not declared in .*assay\.yaml \(did you mean "release"\?\)/],
    [[...suiteArgs('release', db), '-m', 'bot'], /--suite release names its models/],
    [['run', 'cases', '--suite', 'release', '--config', join(dir, 'assay.yaml'), '--db', db], /--suite release names its tasks/],
  ];
  for (const [args, expected] of cases) {
    const result = await assay(args, env(join(dir, 'never.md')));
    assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, expected);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
  }
  assert.equal(existsSync(db), false, 'nothing recorded');
  assert.equal(existsSync(join(dir, 'never.md')), false);
});

test('resume <suite-run>: a suite run a refused key interrupted (exit 130, later entries never started) is continued under the same suite run', async () => {
  const db = join(dir, 'resume.db');
  const interrupted = await assay(suiteArgs('release', db, '--json'), { ...env(join(dir, 'resume-summary.md')), SUITE_BOT_KEY: 'sk-wrong' });
  assert.equal(interrupted.code, 130, interrupted.stderr);
  const stopped = JSON.parse(interrupted.stdout) as SuiteJson;
  assert.deepEqual(stopped.runs.map((r) => r.status ?? 'not started'), ['interrupted', 'not started', 'not started']);
  const firstRun = stopped.runs[0]?.run as string;
  const resumed = await assay(['resume', stopped.suiteRun, '--config', join(dir, 'assay.yaml'), '--db', db, '--json'], env(join(dir, 'resume-summary.md')));
  assert.equal(resumed.code, 0, resumed.stderr);
  const done = JSON.parse(resumed.stdout) as SuiteJson;
  assert.equal(done.suiteRun, stopped.suiteRun);
  assert.equal(done.runs[0]?.run, firstRun, 'the interrupted run was resumed, not started again');
  assert.deepEqual(done.runs.map((r) => r.status), ['finished', 'finished', 'finished']);
  assert.deepEqual(done.results.filter((r) => r.kind === 'threshold').map((r) => r.outcome), ['pass', 'pass', 'inconclusive']);
  const store = await openStore(db);
  try {
    const runs = await store.listRuns();
    assert.equal(runs.length, 3);
    assert.ok(runs.every((r) => r.suiteRun?.id === stopped.suiteRun));
  } finally {
    await store.close();
  }
});
