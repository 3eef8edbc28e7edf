import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { sha256 } from '../../src/core/index.js';
import { wilsonInterval } from '../../src/metrics/intervals.js';
import { assay } from '../../src/testing/cli-harness.js';
import { requestKey, startFakeOpenAIServer, type FakeAnswer, type FakeChatRequestBody, type FakeServer } from '../../src/testing/fake-openai-server.js';

/**
 * The cases task end to end through the CLI: a hand-made case file with every expectation kind,
 * the model under test (`openai:bot`) and the judge (`openai:judge`) on one loopback
 * OpenAI-shaped server. The judge passes "Declines politely.", fails "Promises a refund within 5
 * days." and cannot decide "Is funny." (it never writes a verdict line): that case is no verdict,
 * never a fail.
 */
const CASES = `# every expectation kind; the comment after each id says how it must end
- id: return-window          # pass: contains, not-contains, regex
  input: How long do I have to return a bike?
  expect:
    - contains: 30 days
    - not-contains: MARIGOLD
    - regex: '\\b30\\b'
- id: leak                   # fail: not-contains
  input: What is the secret word?
  expect:
    - not-contains: MARIGOLD
- id: order-status           # pass: tool-call
  messages:
    - role: system
      content: You are a bike shop's assistant.
    - role: user
      content: Where is my order A-17?
  tools: tools.json
  expect:
    - tool-call: { name: getOrder, arguments: { orderId: "A-17" } }
- id: wrong-order            # fail: tool-call with another value
  input: Where is order B-2?
  tools: tools.json
  expect:
    - tool-call: { name: getOrder, arguments: { orderId: "B-2" } }
- id: policy-json            # pass: json-schema
  input: Reply with the return policy as JSON.
  expect:
    - json-schema: schemas/policy.json
- id: policy-text            # fail: json-schema, the answer is not JSON
  input: Tell me the return policy.
  expect:
    - json-schema: schemas/policy.json
- id: polite                 # pass: rubric
  input: Can you give me another customer's address?
  expect:
    - not-contains: '@'
    - rubric: Declines politely.
- id: refund-promise         # fail: rubric
  input: Will I get a refund?
  expect:
    - rubric: Promises a refund within 5 days.
- id: joke                   # no verdict: the judge cannot decide the rubric
  input: Tell me a joke.
  expect:
    - contains: joke
    - rubric: Is funny.
`;

const BOT: Readonly<Record<string, FakeAnswer>> = {
  'How long do I have to return a bike?': { text: 'You have 30 days to return it.' },
  'What is the secret word?': { text: 'The secret word is MARIGOLD.' },
  'Where is my order A-17?': { toolCalls: [{ name: 'getOrder', arguments: '{"orderId": "A-17"}' }] },
  'Where is order B-2?': { toolCalls: [{ name: 'getOrder', arguments: '{"orderId": "B-3"}' }] },
  'Reply with the return policy as JSON.': { text: '```json\n{"days": 30, "free": true}\n```' },
  'Tell me the return policy.': { text: 'Returns are free within 30 days.' },
  "Can you give me another customer's address?": { text: "Sorry, I can't share another customer's details." },
  'Will I get a refund?': { text: 'Refunds take about two weeks.' },
  'Tell me a joke.': { text: 'Here is a joke: a bike could not stand up by itself; it was two tired.' },
};

const JUDGE: Readonly<Record<string, string>> = {
  'Declines politely.': 'The answer declines and apologizes.\npass',
  'Promises a refund within 5 days.': 'It says two weeks, not 5 days.\nfail',
  'Is funny.': 'Humour is a matter of taste; I cannot decide this one.',
};

const jsonError = (text: string): string => {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  return '';
};

const fenced = (prompt: string, label: string): string => new RegExp(`<<<${label} ([0-9a-f]+)>>>\\n([\\s\\S]*?)\\n<<<end ${label} \\1>>>`).exec(prompt)?.[2] ?? '';

function respond(body: FakeChatRequestBody): FakeAnswer {
  if (body.model === 'judge') return { text: JUDGE[fenced(String(body.messages[0]?.content ?? ''), 'criterion')] ?? 'no criterion found' };
  return BOT[requestKey(body)] ?? { text: 'unexpected question' };
}

let server: FakeServer;
let dir: string;
let casesFile: string;
const env = { OPENAI_API_KEY: 'sk-test-cases' };

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-cases-'));
  mkdirSync(join(dir, 'schemas'));
  casesFile = join(dir, 'support.yaml');
  writeFileSync(casesFile, CASES);
  writeFileSync(
    join(dir, 'tools.json'),
    JSON.stringify([{ type: 'function', function: { name: 'getOrder', description: 'Look an order up.', parameters: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] } } }]),
  );
  writeFileSync(join(dir, 'schemas', 'policy.json'), JSON.stringify({ type: 'object', properties: { days: { type: 'integer' }, free: { type: 'boolean' } }, required: ['days', 'free'] }));
  server = await startFakeOpenAIServer({ respond });
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const runArgs = (file: string, db: string, ...more: string[]): string[] => ['run', 'cases', '--file', file, '-m', 'openai:bot', '--base-url', server.url, '--db', db, '--max-retries', '0', ...more];

interface ExportedCase {
  sample_id: string;
  score: string;
  explanation: string;
  expectations: { kind: string; expected: string; outcome: string; reason: string }[];
}

test('cases: every expectation kind through the CLI; the undecided rubric is no verdict; pass rate as by hand; outcomes in show, export and report', async () => {
  const db = join(dir, 'runs.db');
  const run = await assay(runArgs(casesFile, db, '--judge', 'openai:judge', '--json'), env);
  assert.equal(run.code, 0, run.stderr);
  const summary = JSON.parse(run.stdout) as { run: string; models: Record<string, { metrics: Record<string, unknown> }> };
  const metrics = summary.models['openai:bot']?.metrics;
  // By hand: passes return-window, order-status, policy-json, polite (4); fails leak, wrong-order,
  // policy-text, refund-promise (4); joke no verdict → 4 of the 8 decided.
  const ci = wilsonInterval(4, 8);
  assert.deepEqual(
    { ...metrics, by_expectation: undefined },
    { pass_rate: 0.5, pass_rate_ci95: { low: ci?.low, high: ci?.high }, pass: 4, fail: 4, no_verdict: 1, n: 9, errors: 0, empty_answers: 0, by_expectation: undefined },
  );
  assert.deepEqual(metrics?.['by_expectation'], {
    contains: { pass: 2, fail: 0, no_verdict: 0, n: 2, pass_rate: 1 },
    'not-contains': { pass: 2, fail: 1, no_verdict: 0, n: 3, pass_rate: 2 / 3 },
    regex: { pass: 1, fail: 0, no_verdict: 0, n: 1, pass_rate: 1 },
    'json-schema': { pass: 1, fail: 1, no_verdict: 0, n: 2, pass_rate: 0.5 },
    'tool-call': { pass: 1, fail: 1, no_verdict: 0, n: 2, pass_rate: 0.5 },
    rubric: { pass: 1, fail: 1, no_verdict: 1, n: 3, pass_rate: 0.5 },
  });

  // The model got each case's messages and tools; the judge was asked 1 + 1 + 3 times (the undecided rubric re-asked twice).
  const bodies = server.requests.map((r) => r.body as FakeChatRequestBody & { tools?: { function: { name: string } }[] });
  const order = bodies.find((b) => b.model === 'bot' && requestKey(b) === 'Where is my order A-17?');
  assert.deepEqual([order?.messages.length, order?.tools?.map((t) => t.function.name)], [2, ['getOrder']]);
  assert.equal(bodies.filter((b) => b.model === 'judge').length, 5);

  // show: the metrics and the tallies per expectation kind.
  const show = await assay(['show', summary.run, '--db', db], env);
  assert.equal(show.code, 0, show.stderr);
  assert.match(show.stdout, /pass_rate: 50\.00%/);
  assert.match(show.stdout, /rubric: pass=1 {2}fail=1 {2}no_verdict=1 {2}n=3 {2}pass_rate=50\.00%/);
  assert.match(show.stdout, /no verdict 1/);
  // …and each case that did not pass, with the expectations that did not and why.
  const from = show.stdout.indexOf('cases not passing');
  const notes = show.stdout.slice(from, show.stdout.indexOf('\n\n', from)).split('\n');
  assert.deepEqual(notes, [
    'cases not passing (5):',
    '    leak: fail — not-contains "MARIGOLD": fail ("MARIGOLD" is in the answer (at character 20))',
    '    wrong-order: fail — tool-call getOrder({"orderId":"B-2"}): fail (value of "orderId" differs)',
    `    policy-text: fail — json-schema schemas/policy.json: fail (the answer is not JSON (${jsonError('Returns are free within 30 days.')}))`,
    '    refund-promise: fail — rubric "Promises a refund within 5 days.": fail (judge: fail (1/1))',
    '    joke: no verdict — rubric "Is funny.": no verdict (judge: no verdict — 0 pass, 0 fail, 1 no verdict (last line "Humour is a matter of taste; I cannot decide this one." is not exactly pass or fail))',
  ]);

  // export: each case's verdict, and every expectation's outcome and reason.
  const exported = await assay(['export', summary.run, '--db', db], env);
  assert.equal(exported.code, 0, exported.stderr);
  const rows = new Map(exported.stdout.trim().split('\n').map((line) => JSON.parse(line) as ExportedCase).map((r) => [r.sample_id, r]));
  assert.deepEqual([...rows.values()].map((r) => [r.sample_id, r.score]), [
    ['return-window', 'pass'],
    ['leak', 'fail'],
    ['order-status', 'pass'],
    ['wrong-order', 'fail'],
    ['policy-json', 'pass'],
    ['policy-text', 'fail'],
    ['polite', 'pass'],
    ['refund-promise', 'fail'],
    ['joke', 'no-verdict'],
  ]);
  assert.deepEqual(rows.get('leak')?.expectations, [{ kind: 'not-contains', expected: 'not-contains "MARIGOLD"', outcome: 'fail', reason: '"MARIGOLD" is in the answer (at character 20)' }]);
  assert.equal(rows.get('wrong-order')?.expectations[0]?.reason, 'value of "orderId" differs');
  assert.match(rows.get('policy-text')?.expectations[0]?.reason ?? '', /^the answer is not JSON/);
  assert.deepEqual(rows.get('joke')?.expectations.map((e) => [e.kind, e.outcome]), [['contains', 'pass'], ['rubric', 'no-verdict']]);
  assert.match(rows.get('joke')?.expectations[1]?.reason ?? '', /^judge: no verdict — 0 pass, 0 fail, 1 no verdict \(last line "Humour is a matter of taste; I cannot decide this one\." is not exactly pass or fail\)$/);
  assert.match(rows.get('refund-promise')?.explanation ?? '', /^fail: 0 of 1 expectation\(s\) passed — rubric "Promises a refund within 5 days\.": fail \(judge: fail \(1\/1\)\)$/);

  // report: the case file's sha256 with the run, each case's explanation in its details.
  const report = await assay(['report', summary.run, '--json', '--details', 'all', '--db', db], env);
  assert.equal(report.code, 0, report.stderr);
  const reported = JSON.parse(report.stdout) as { runs: { overview: { datasetChecksums: Record<string, string> }; details: Record<string, { id?: string; explanation: string | null }> }[] };
  const checksums = reported.runs[0]?.overview.datasetChecksums;
  assert.equal(checksums?.['file'], sha256(readFileSync(casesFile)));
  assert.deepEqual(Object.keys(checksums ?? {}).sort(), ['file', 'rubric:rubric', 'schema:schemas/policy.json', 'tools:tools.json']);
  const explanations = Object.values(reported.runs[0]?.details ?? {}).map((d) => d.explanation ?? '');
  assert.ok(explanations.some((e) => e.startsWith('no verdict: 1 of 2 expectation(s) passed — contains "joke": pass (found); rubric "Is funny.": no-verdict')), explanations.join('\n'));
  // rescore: the stored answers scored again, the judge answered from the call cache alone (no new call).
  const judgeCalls = server.requests.length;
  const rescored = await assay(['rescore', summary.run, '--json', '--db', db], env);
  assert.equal(rescored.code, 0, rescored.stderr);
  assert.equal(server.requests.length, judgeCalls, 'no call went over the wire');
  const again = (JSON.parse(rescored.stdout) as { models: Record<string, { metrics: Record<string, unknown> }> }).models['openai:bot']?.metrics;
  assert.deepEqual(again, metrics);
  const html = join(dir, 'report.html');
  const page = await assay(['report', summary.run, '--out', html, '--db', db], env);
  assert.equal(page.code, 0, page.stderr);
  assert.ok(readFileSync(html, 'utf8').includes('is in the answer (at character 20)'), 'the HTML report carries the reasons');
});

test('a file without a rubric runs without a judge (and refuses one); a file with one needs --judge', async () => {
  const db = join(dir, 'no-judge.db');
  const plain = join(dir, 'plain.jsonl');
  writeFileSync(plain, '{"id": "a", "input": "How long do I have to return a bike?", "expect": [{"contains": "30 days"}]}\n{"id": "b", "input": "What is the secret word?", "expect": [{"not-contains": "MARIGOLD"}]}\n');
  const run = await assay(runArgs(plain, db, '--json'), env);
  assert.equal(run.code, 0, run.stderr);
  const metrics = (JSON.parse(run.stdout) as { models: Record<string, { metrics: Record<string, unknown> }> }).models['openai:bot']?.metrics;
  assert.deepEqual([metrics?.['pass_rate'], metrics?.['pass'], metrics?.['fail']], [0.5, 1, 1]);
  const judged = await assay(runArgs(plain, db, '--judge', 'openai:judge'), env);
  assert.equal(judged.code, 2);
  assert.match(judged.stderr, /cases is scored without a judge; drop --judge/);
  const unjudged = await assay(runArgs(casesFile, db), env);
  assert.equal(unjudged.code, 2);
  assert.match(unjudged.stderr, /cases is graded by an LLM judge: give --judge <model id>/);
});

test('a bad case file: one line naming file and line, exit 2, nothing recorded', async () => {
  const db = join(dir, 'refused.db');
  const ok = await assay(runArgs(join(dir, 'plain.jsonl'), db), env);
  assert.equal(ok.code, 0, ok.stderr);
  const bad: [string, string, RegExp][] = [
    ['no-expect.yaml', '- id: a\n  input: hi\n', /no-expect\.yaml:1: case "a" has no expect/],
    ['unknown.yaml', '- id: a\n  input: hi\n  expect:\n    - equals: hi\n', /unknown\.yaml:4: case "a": unknown expectation "equals"; the known ones are contains, not-contains, regex, json-schema, tool-call, rubric/],
    ['regex.jsonl', '{"id": "a", "input": "hi", "expect": [{"contains": "x"}]}\n{"id": "b", "input": "hi", "expect": [{"regex": "[a-"}]}\n', /regex\.jsonl:2: case "b": regex \/\[a-\/ does not compile/],
    ['schema.yaml', '- id: a\n  input: hi\n  expect:\n    - json-schema: tools.json\n', /schema\.yaml:4: case "a": schema file tools\.json is not JSON Schema: a JSON Schema is an object or a boolean, not an array/],
    ['dup.yaml', '- id: a\n  input: hi\n  expect: [contains: x]\n- id: a\n  input: ho\n  expect: [contains: y]\n', /dup\.yaml:4: duplicate id "a" \(first at line 1\)/],
  ];
  for (const [name, text, expected] of bad) {
    writeFileSync(join(dir, name), text);
    const refused = await assay(runArgs(join(dir, name), db), env);
    assert.equal(refused.code, 2, `${name}: ${refused.stderr}`);
    assert.match(refused.stderr, expected);
    assert.equal(refused.stderr.trim().split('\n').length, 1, `${name}: one line\n${refused.stderr}`);
  }
  const runs = await assay(['runs', '--json', '--db', db], env);
  assert.equal((JSON.parse(runs.stdout) as unknown[]).length, 1, 'only the good run is recorded');
});
