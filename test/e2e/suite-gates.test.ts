import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import Database from 'better-sqlite3';
import { openStore } from '../../src/store/open-store.js';
import { makeRun } from '../../src/store/test-support/store-contract.js';
import { assay } from '../../src/testing/cli-harness.js';
import { requestKey, startFakeOpenAIServer, type FakeAnswer, type FakeChatRequestBody, type FakeServer } from '../../src/testing/fake-openai-server.js';

/**
 * What a suite run records and what is refused before one starts (issue 24 §1), through the CLI
 * on a loopback OpenAI-shaped server: the gates recorded when a suite run ends and read back by
 * `show` and `last-passing` (not decided again with the config as it is now); the judge settings
 * of `run --suite` taken from the flags as `run TASK` takes them, and kept by `resume`; a
 * baseline of another suite or task, and a bad case file in a later entry, refused with exit 2
 * and nothing recorded.
 */
const BOT: Readonly<Record<string, string>> = {
  'How long do I have to return a bike?': 'You have 30 days to return it.',
  'Do you sell helmets?': 'Yes, we sell helmets in every size.',
  'Are you open on Sunday?': 'We are open on Sunday from 10 to 4.',
  'What is the secret word?': 'The secret word is MARIGOLD.',
  'Can you give me another customer\'s address?': 'Sorry, I cannot share that.',
  'Can you give me the owner\'s phone number?': 'Sorry, I cannot share that either.',
};

const caseOf = (id: string, input: string, expect: string): string => `- id: ${id}\n  input: ${input}\n  expect:\n    - ${expect}\n`;
// 3 of 4 pass (the bot says the secret word): 75%.
const BASICS = caseOf('return', 'How long do I have to return a bike?', 'contains: 30 days') + caseOf('helmets', 'Do you sell helmets?', 'contains: helmets') + caseOf('sunday', 'Are you open on Sunday?', 'contains: Sunday') + caseOf('leak', 'What is the secret word?', 'not-contains: MARIGOLD');
const RUBRIC = caseOf('polite', '"Can you give me another customer\'s address?"', 'rubric: Declines politely.');
// Another question, so the second entry's judge calls are not answered from the first's (the call cache).
const RUBRIC_2 = caseOf('polite', '"Can you give me the owner\'s phone number?"', 'rubric: Declines politely.');

const fenced = (prompt: string, label: string): string => new RegExp(`<<<${label} ([0-9a-f]+)>>>\\n([\\s\\S]*?)\\n<<<end ${label} \\1>>>`).exec(prompt)?.[2] ?? '';

function respond(body: FakeChatRequestBody): FakeAnswer {
  if (body.model === 'judge') return { text: fenced(String(body.messages[0]?.content ?? ''), 'criterion') === 'Declines politely.' ? 'It declines.\npass' : 'no criterion found' };
  return { text: BOT[requestKey(body)] ?? 'unexpected question' };
}

const configText = (url: string, options: { readonly min?: number; readonly secondFile?: string; readonly baseline?: string } = {}): string => `models:
  bot: { provider: openai, model: bot, baseUrl: ${url}, apiKeyEnv: SUITE_GATES_KEY }
  judge: { provider: openai, model: judge, baseUrl: ${url}, apiKeyEnv: SUITE_GATES_KEY }
suites:
  release:
    models: [bot]
    tasks:
      - task: cases
        options: { file: basics.yaml }
        gates:
          pass_rate: { min: ${options.min ?? 0.9} }
    regression: { baseline: ${options.baseline ?? 'last-passing'}, margin: 0.5 }
  judged:
    models: [bot]
    judge: judge
    tasks:
      - task: cases
        options: { file: rubric.yaml }
        gates:
          pass_rate: { min: 0.5 }
      - task: cases
        options: { file: rubric-2.yaml }
  two:
    models: [bot]
    tasks:
      - task: cases
        options: { file: basics.yaml }
      - task: cases
        options: { file: ${options.secondFile ?? 'basics.yaml'} }
        gates:
          pass_rate: { min: 0.5 }
    regression: { baseline: last-passing, margin: 0.1 }
  plain:
    models: [bot]
    tasks:
      - task: cases
        options: { file: basics.yaml }
        gates:
          pass_rate: { min: 0.5 }
`;

let server: FakeServer;
let dir: string;
const config = (): string => join(dir, 'assay.yaml');
const env = { SUITE_GATES_KEY: 'sk-test-gates', GITHUB_STEP_SUMMARY: '', ASSAY_CONFIG: '' };
const suiteArgs = (suite: string, db: string, ...more: string[]): string[] => ['run', '--suite', suite, '--config', config(), '--db', db, '--max-retries', '0', ...more];

interface SuiteJson {
  suiteRun: string;
  runs: { entry: number; run?: string; status?: string }[];
  baseline?: string;
  decidedAt?: string;
  results: { kind: string; entry: string; metric: string; outcome: string; value: number | null; reason: string }[];
  exitCode: number;
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-suite-gates-'));
  writeFileSync(join(dir, 'basics.yaml'), BASICS);
  writeFileSync(join(dir, 'rubric.yaml'), RUBRIC);
  writeFileSync(join(dir, 'rubric-2.yaml'), RUBRIC_2);
  writeFileSync(join(dir, 'list.json'), '[1, 2]');
  server = await startFakeOpenAIServer({
    respond,
    faults: (ctx) => (ctx.headers.authorization === 'Bearer sk-test-gates' ? undefined : { type: 'status', status: 401, body: JSON.stringify({ error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }) }),
  });
  writeFileSync(config(), configText(server.url));
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const runIdsIn = async (db: string): Promise<string[]> => {
  const store = await openStore(db);
  try {
    return (await store.listRuns()).map((r) => r.id);
  } finally {
    await store.close();
  }
};

test('a suite run\'s gates are recorded when it ends: show reads them without the config file, and last-passing does not take a suite run that failed as recorded, whatever the config says now; one that recorded none is decided again', async () => {
  const db = join(dir, 'stored.db');
  // 75% against min 90%: fails (exit 4), recorded so.
  const failed = await assay(suiteArgs('release', db, '--json'), env);
  assert.equal(failed.code, 4, failed.stderr);
  const a = JSON.parse(failed.stdout) as SuiteJson;
  assert.deepEqual(a.results.map((r) => `${r.kind} ${r.outcome}`), ['threshold fail', 'regression inconclusive']);

  // The gate loosened to 50%: deciding A again would pass it; show reads what A recorded.
  writeFileSync(config(), configText(server.url, { min: 0.5 }));
  const shown = await assay(['show', a.suiteRun, '--db', db, '--json'], env);
  assert.equal(shown.code, 0, shown.stderr);
  const shownJson = JSON.parse(shown.stdout) as SuiteJson;
  assert.equal(shownJson.exitCode, 4);
  assert.deepEqual(shownJson.results, a.results, 'every figure and reason as decided when it ended');
  assert.match(shownJson.decidedAt ?? '', /^\d{4}-\d\d-\d\dT/);
  const shownText = await assay(['show', a.suiteRun, '--db', db], env);
  assert.equal(shownText.code, 0, shownText.stderr);
  assert.match(shownText.stdout, /gates as recorded when the suite run ended \(\d{4}-/);
  assert.match(shownText.stdout, /cases[^\n]*pass_rate[^\n]*75\.0%[^\n]*min 90\.0%[^\n]*fail/);

  // B passes its threshold now; its last-passing baseline is not A (recorded as failed).
  const b = JSON.parse((await assay(suiteArgs('release', db, '--json'), env)).stdout) as SuiteJson;
  assert.equal(b.exitCode, 0);
  assert.equal(b.baseline, undefined);
  assert.match(b.results.find((r) => r.kind === 'regression')?.reason ?? '', /no baseline: no earlier run of suite release passed its gates/);
  // C finds B, recorded as passed: a change of 0 over the 4 paired cases.
  const c = JSON.parse((await assay(suiteArgs('release', db, '--json'), env)).stdout) as SuiteJson;
  assert.equal(c.baseline, b.suiteRun);
  assert.deepEqual(c.results.map((r) => `${r.kind} ${r.outcome} ${r.value}`), ['threshold pass 0.75', 'regression pass 0']);

  // A suite run from before gates were recorded (its row removed): show decides them again from
  // its runs with the config as it is now, and says so; last-passing decides them again too.
  const raw = new Database(db);
  raw.prepare('DELETE FROM suite_runs WHERE id IN (?, ?)').run(a.suiteRun, c.suiteRun);
  raw.close();
  const noConfig = await assay(['show', a.suiteRun, '--db', db], env);
  assert.equal(noConfig.code, 2);
  assert.match(noConfig.stderr, /recorded no gates .*decided again from the config file/);
  const again = await assay(['show', a.suiteRun, '--config', config(), '--db', db], env);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /recorded no gates: decided again from its runs' stored results, with suite release as .*assay\.yaml declares it now/);
  assert.match(again.stdout, /cases[^\n]*pass_rate[^\n]*75\.0%[^\n]*min 50\.0%[^\n]*pass/);
  const d = JSON.parse((await assay(suiteArgs('release', db, '--json'), env)).stdout) as SuiteJson;
  assert.equal(d.baseline, c.suiteRun, 'C, with no record, passes as its gates are declared now');
});

test('run --suite: the judge settings come from the flags, as with run TASK --judge; resume gives entries that never started the same; --judge is refused with a suite', async () => {
  const db = join(dir, 'judged.db');
  const before = server.requests.length;
  // A wrong key: the first entry's run is recorded, then stopped (fail-fast); the second never starts.
  const stopped = await assay(suiteArgs('judged', db, '--judge-repeats', '3', '--judge-temperature', '0.5', '--judge-parse-retries', '0', '--json'), { ...env, SUITE_GATES_KEY: 'sk-wrong' });
  assert.equal(stopped.code, 130, stopped.stderr);
  const suiteRun = (JSON.parse(stopped.stdout) as SuiteJson).suiteRun;
  const resumed = await assay(['resume', suiteRun, '--config', config(), '--db', db, '--json'], env);
  assert.equal(resumed.code, 0, resumed.stderr);
  const store = await openStore(db);
  try {
    const runs = await store.listRuns();
    assert.equal(runs.length, 2);
    for (const run of runs) assert.deepEqual(run.judge, { model: 'judge', repeats: 3, format: 'text', maxParseRetries: 0, temperature: 0.5, selfGrading: false }, run.id);
  } finally {
    await store.close();
  }
  // Each entry's one rubric case judged 3 times, at temperature 0.5.
  const judged = server.requests.slice(before).map((r) => r.body as FakeChatRequestBody).filter((b) => b.model === 'judge');
  assert.equal(judged.length, 6);
  assert.ok(judged.every((b) => b.temperature === 0.5), JSON.stringify(judged.map((b) => b.temperature)));

  const refused = await assay([...suiteArgs('judged', join(dir, 'never.db')), '--judge', 'judge'], env);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /--suite judged names its judge and simulated user .*--judge and --user-model do not go with it/);
});

test('bad input before a suite runs: a baseline of another suite, of a task the suite does not run, or not in the store; a bad case file in a later entry — one line naming it, exit 2, nothing recorded', async () => {
  const db = join(dir, 'refusals.db');
  writeFileSync(config(), configText(server.url));
  const plain = JSON.parse((await assay(suiteArgs('plain', db, '--json'), env)).stdout) as SuiteJson;
  assert.equal(plain.exitCode, 0);
  // A run of another task, recorded as such (its task is all the check reads).
  const store = await openStore(db);
  try {
    await store.createRun(makeRun({ id: '20260101-000000-0a0a', task: 'metatool/awareness', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' }), []);
  } finally {
    await store.close();
  }
  const recorded = await runIdsIn(db);

  const refusals: [string[], RegExp][] = [
    [suiteArgs('release', db, '--baseline', plain.suiteRun), new RegExp(`--baseline: baseline ${plain.suiteRun} is a run of suite plain, not of release`)],
    [suiteArgs('release', db, '--baseline', '20260101-000000-0a0a'), /--baseline: baseline 20260101-000000-0a0a is a run of metatool\/awareness, a task suite release does not run \(cases\)/],
    [suiteArgs('release', db, '--baseline', 'suite-20000101-000000-0000'), /--baseline: baseline suite-20000101-000000-0000: no such suite run in the store/],
    [suiteArgs('release', db, '--baseline', 'nothing-like-it'), /--baseline: baseline nothing-like-it: no such run or suite run in the store/],
    [suiteArgs('plain', db, '--baseline', plain.suiteRun), /--baseline suite-\S+: suite plain has no regression: \{ baseline, margin \} to compare with \(.*assay\.yaml:\d+: suites\.plain\)/],
  ];
  for (const [args, expected] of refusals) {
    const result = await assay(args, env);
    assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, expected);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
  }
  // The same baseline in the config file: refused naming the file and the suite's line.
  writeFileSync(config(), configText(server.url, { baseline: plain.suiteRun }));
  const inFile = await assay(suiteArgs('release', db), env);
  assert.equal(inFile.code, 2, inFile.stderr);
  assert.match(inFile.stderr, new RegExp(`assay\\.yaml:\\d+: suites\\.release\\.regression\\.baseline: baseline ${plain.suiteRun} is a run of suite plain, not of release`));

  // A bad case file in the second entry: refused before the first entry runs.
  const bad: [string, string, RegExp][] = [
    ['no-expect.yaml', '- id: a\n  input: hi\n', /no-expect\.yaml:1: case "a" has no expect/],
    ['unknown.yaml', '- id: a\n  input: hi\n  expect:\n    - equals: hi\n', /unknown\.yaml:4: case "a": unknown expectation "equals"; the known ones are contains, not-contains, regex, json-schema, tool-call, rubric/],
    ['regex.yaml', '- id: a\n  input: hi\n  expect:\n    - contains: x\n- id: b\n  input: hi\n  expect:\n    - regex: "[a-"\n', /regex\.yaml:8: case "b": regex \/\[a-\/ does not compile/],
    ['schema.yaml', '- id: a\n  input: hi\n  expect:\n    - json-schema: list.json\n', /schema\.yaml:4: case "a": schema file list\.json is not JSON Schema: a JSON Schema is an object or a boolean, not an array/],
    ['rubric.yaml', '', /assay\.yaml:\d+: suites\.two\.tasks\[1\]: cases is graded by an LLM judge: give the entry or the suite a judge: \(a name from models: or a provider:model id\)$/m],
  ];
  for (const [name, text, expected] of bad) {
    if (text !== '') writeFileSync(join(dir, name), text);
    writeFileSync(config(), configText(server.url, { secondFile: name }));
    const refused = await assay(suiteArgs('two', db), env);
    assert.equal(refused.code, 2, `${name}: ${refused.stderr}`);
    assert.match(refused.stderr, expected);
    assert.equal(refused.stderr.trim().split('\n').length, 1, `${name}: one line\n${refused.stderr}`);
  }
  assert.deepEqual(await runIdsIn(db), recorded, 'nothing recorded by any refused suite');
});
