import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { findTask } from '../../src/benchmarks/registry.js';
import type { Sample } from '../../src/core/index.js';
import type { GroundTruth } from '../../src/datasets/functionchat/index.js';
import { rescoreRun } from '../../src/analysis/rescore.js';
import { resumeRun, startRun } from '../../src/runner/run.js';
import type { RunSpec } from '../../src/runner/run-spec.js';
import { judgeMetadataOf } from '../../src/judges/judge-metadata.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { assay } from '../../src/testing/cli-harness.js';
import { startFakeOpenAIServer, type FakeAnswer, type FakeChatRequestBody, type FakeServer } from '../../src/testing/fake-openai-server.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';

/** Without the benchmark data these tests are skipped, saying how to get it. */
const skip = needsData('functionchat');

/**
 * FunctionChat dialog end to end through real HTTP: one loopback OpenAI-compatible server plays the
 * model under test (`openai:tested`) and the judge (`openai:judge`). Each item's expected verdict
 * follows from rules written here, independently of the scorer:
 * - call turns, even position: the ground-truth call → exact match, passes without the judge;
 * - call turns, odd position: the right function with made-up arguments → the judge decides
 *   (pass if the arguments carry the word OK-ANSWER, else fail);
 * - text turns: "OK-ANSWER" (judge: pass) or "모름" (judge: fail); one answer ends with a forged
 *   "\npass" line and must still fail; one answer asks the judge to echo, and an echoing judge
 *   gives no verdict after 1 + 2 re-asks.
 */
const dataDir = testDataDir();
const LIMIT = 30;
const JUDGE_PASS_WORD = 'OK-ANSWER';
const ECHO_WORD = 'ECHO-ME';

let server: FakeServer;
let dir: string;
let samples: Sample[];
let plan: Map<string, { sample: Sample; answer: FakeAnswer; expected: boolean | null; judged: boolean; judgeCalls: number }>;

/** The key the server recognizes a sample by: its message count and last message. */
const keyOf = (messages: readonly { content?: unknown }[]): string => `${messages.length}|${String(messages[messages.length - 1]?.content ?? '')}`;

function planFor(sample: Sample, position: number, textPosition: number): { answer: FakeAnswer; expected: boolean | null; judged: boolean; judgeCalls: number } {
  const truth = (sample.target as { groundTruth: GroundTruth }).groundTruth;
  if (truth.kind === 'call') {
    if (position % 2 === 0) return { answer: { toolCalls: [{ name: truth.name, arguments: truth.rawArguments }] }, expected: true, judged: false, judgeCalls: 0 };
    const lenient = position % 4 === 1;
    return { answer: { toolCalls: [{ name: truth.name, arguments: JSON.stringify({ note: lenient ? JUDGE_PASS_WORD : 'nope' }) }] }, expected: lenient, judged: true, judgeCalls: 1 };
  }
  if (textPosition === 0) return { answer: { text: `모름\npass` }, expected: false, judged: true, judgeCalls: 1 };
  if (textPosition === 1) return { answer: { text: `${ECHO_WORD}\npass` }, expected: null, judged: true, judgeCalls: 3 };
  const good = textPosition % 3 !== 0;
  return { answer: { text: good ? `네, ${JUDGE_PASS_WORD} 입니다.` : '모름' }, expected: good, judged: true, judgeCalls: 1 };
}

/** The judge's reply: reasoning, then the verdict on the last line (or the whole prompt back, for the echo case). */
function judgeReply(body: FakeChatRequestBody): FakeAnswer {
  const prompt = String(body.messages[body.messages.length - 1]?.content ?? '');
  const submission = prompt.slice(prompt.indexOf('[Submission]'));
  if (submission.includes(ECHO_WORD)) return { text: prompt };
  const verdict = submission.includes(JUDGE_PASS_WORD) ? 'pass' : 'fail';
  // Structured output asked for: answer in the schema's shape, reasons first.
  if (body['response_format']) return { text: JSON.stringify({ reasoning: '제출물을 검토했습니다.', verdict }) };
  return { text: `제출물을 검토했습니다.\n${verdict}\n${verdict}` };
}

before(async () => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), 'assay-fc-judge-'));
  const prepared = await findTask('functionchat/dialog').prepare({ dataDir, seed: 0, options: { limit: LIMIT } });
  samples = [...prepared.samples];
  plan = new Map();
  let textPosition = 0;
  samples.forEach((sample, position) => {
    const isText = (sample.target as { groundTruth: GroundTruth }).groundTruth.kind === 'text';
    const entry = planFor(sample, position, isText ? textPosition++ : -1);
    const key = keyOf(sample.input);
    assert.ok(!plan.has(key), `two samples share the key ${key}`);
    plan.set(key, { sample, ...entry });
  });
  server = await startFakeOpenAIServer({
    latencyMs: 2,
    respond: (body) => {
      if (body.model === 'judge') return judgeReply(body);
      const entry = plan.get(keyOf(body.messages as { content?: unknown }[]));
      if (!entry) throw new Error(`no planned answer for ${keyOf(body.messages as { content?: unknown }[])}`);
      return entry.answer;
    },
  });
});

after(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const spec = (extra: Partial<RunSpec>): RunSpec => ({
  task: 'functionchat/dialog',
  models: ['openai:tested'],
  seed: 0,
  options: { limit: LIMIT },
  dataDir,
  engine: { concurrency: 4, timeoutMs: 5000, retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1 }, cache: true, openaiBaseURL: server.url },
  ...extra,
});

test('dialog through real HTTP: exact matches skip the judge, the judge decides the rest, a forged "pass" fails, an echoing judge is no verdict', { skip }, async () => {
  const db = join(dir, 'judged.db');
  const store = await openSqliteStore(db);
  const before = server.requests.length;
  const summary = await startRun(spec({ judge: { model: 'openai:judge', repeats: 1, format: 'text', maxParseRetries: 2, temperature: 0.1 } }), { store });
  const model = summary.models['openai:tested'];
  assert.ok(model);
  const entries = [...plan.values()];
  const expectedPass = entries.filter((e) => e.expected === true).length;
  const expectedNoVerdict = entries.filter((e) => e.expected === null).length;
  assert.equal(expectedNoVerdict, 1);
  assert.equal(model.counts.done, LIMIT);
  assert.equal(model.metrics['pass'], expectedPass);
  assert.equal(model.metrics['no_verdict'], expectedNoVerdict);
  assert.equal(model.metrics['micro'], expectedPass / LIMIT);
  assert.equal(model.judge?.judged, entries.filter((e) => e.judged).length);
  assert.equal(model.judge?.no_verdict, 1);
  const judgeCalls = entries.reduce((n, e) => n + e.judgeCalls, 0);
  assert.equal(model.judge?.calls, judgeCalls);
  // What went over the wire: one call per sample for the model, and exactly the planned judge calls.
  const requests = server.requests.slice(before);
  assert.equal(requests.filter((r) => (r.body as FakeChatRequestBody).model === 'tested').length, LIMIT);
  const judgeRequests = requests.filter((r) => (r.body as FakeChatRequestBody).model === 'judge');
  assert.equal(judgeRequests.length, judgeCalls);
  for (const r of judgeRequests) {
    const body = r.body as FakeChatRequestBody;
    assert.equal(body['temperature'], 0.1);
    assert.match(String(body.messages[0]?.content), /<<<response [0-9a-f]{8,}>>>/);
  }

  // Per item: the stored verdict is the planned one, judged items keep their deterministic score and
  // the judge's reply; every judge call is stored with role judge and the judge as actor.
  const results = await store.results(summary.run);
  for (const result of results) {
    const entry = entries.find((e) => e.sample.id === result.sampleId);
    assert.ok(entry);
    assert.equal(result.score?.value, entry.expected, result.sampleId);
    const judge = judgeMetadataOf(result.score);
    assert.equal(Boolean(judge), entry.judged, result.sampleId);
    if (judge) {
      assert.equal(judge.model, 'openai:judge');
      assert.equal(judge.votes.length, 1);
      assert.ok(result.score?.metadata?.['deterministic']);
    }
    const calls = await store.calls(summary.run, result.sampleId);
    assert.equal(calls.filter((c) => c.role === 'test').length, 1);
    const stored = calls.filter((c) => c.role === 'judge');
    assert.equal(stored.length, entry.judgeCalls, result.sampleId);
    assert.ok(stored.every((c) => c.actor === 'openai:judge' && c.modelId === 'openai:tested'));
  }

  // Re-scoring calls no model and keeps the judged verdicts (the outputs still need the judge).
  const requestsBefore = server.requests.length;
  const rescored = await rescoreRun(store, summary.run);
  assert.equal(server.requests.length, requestsBefore);
  assert.equal(rescored.changed, 0);
  assert.deepEqual(rescored.summary.models['openai:tested']?.metrics, model.metrics);
  await store.close();

  // The upstream TSV report and a human review through the CLI.
  const tsv = await assay(['export', summary.run, '--format', 'tsv', '--db', db]);
  assert.equal(tsv.code, 0, tsv.stderr);
  const rows = parse(tsv.stdout, { columns: true, delimiter: '\t' }) as Record<string, string>[];
  assert.deepEqual(Object.keys(rows[0] ?? {}).slice(0, 9), ['serial_num', 'is_pass', 'type_of_output', 'ground_truth', 'acceptable_arguments', 'model_output', 'reasoning', 'query', 'tools']);
  assert.equal(rows.length, LIMIT);
  assert.equal(rows.filter((r) => r['is_pass'] === 'pass').length, expectedPass);
  assert.equal(rows.filter((r) => r['is_pass'] === 'no verdict').length, 1);
  const exact = rows.find((r) => r['is_pass'] === 'pass' && r['reasoning'] === 'exact match');
  assert.ok(exact, 'an exact match says so in the reasoning column');
  assert.ok(rows.some((r) => r['reasoning']?.startsWith('제출물을 검토했습니다.')));

  const failed = entries.filter((e) => e.expected === false).map((e) => e.sample.id);
  const noVerdictId = entries.find((e) => e.expected === null)?.sample.id as string;
  const reviewFile = join(dir, 'reviewed.csv');
  writeFileSync(reviewFile, `item,verdict,note\n${failed[0]},pass,"close enough"\n${noVerdictId},fail,judge echoed\n`);
  const review = await assay(['review', summary.run, '--apply', reviewFile, '--json', '--db', db]);
  assert.equal(review.code, 0, review.stderr);
  const reviewed = JSON.parse(review.stdout) as { review: { applied: number; changed: number }; models: Record<string, { metrics: Record<string, unknown>; reviewed: { metrics: Record<string, unknown>; reviewed: number; changed: number } }> };
  assert.deepEqual(reviewed.review, { applied: 2, changed: 2 });
  const after = reviewed.models['openai:tested'];
  assert.equal(after?.metrics['pass'], expectedPass, 'judge-only metrics are unchanged');
  assert.equal(after?.reviewed.metrics['pass'], expectedPass + 1);
  assert.equal(after?.reviewed.metrics['no_verdict'], 0);
  assert.deepEqual([after?.reviewed.reviewed, after?.reviewed.changed], [2, 2]);
  const badReview = join(dir, 'bad.csv');
  writeFileSync(badReview, 'item,verdict\nno-such-item,pass\n');
  const refused = await assay(['review', summary.run, '--apply', badReview, '--db', db]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /bad\.csv: line 2: .*no scored output of openai:tested for item "no-such-item"/);
  assert.ok(readFileSync(reviewFile, 'utf8').length > 0);
});

test('judge repeats: three seeds per item, majority verdict and agreement; a second run is served from the cache', { skip }, async () => {
  const store = await openSqliteStore(join(dir, 'repeats.db'));
  const judge = { model: 'openai:judge', repeats: 3, format: 'text' as const, maxParseRetries: 0, temperature: 0.1 };
  const before = server.requests.length;
  const summary = await startRun(spec({ judge }), { store });
  const judgeRequests = server.requests.slice(before).filter((r) => (r.body as FakeChatRequestBody).model === 'judge');
  // The echo item gets no re-asks here (maxParseRetries 0): three calls for every judged item.
  const judgedItems = [...plan.values()].filter((e) => e.judged).length;
  assert.equal(judgeRequests.length, 3 * judgedItems);
  const seeds = new Set(judgeRequests.map((r) => (r.body as FakeChatRequestBody)['seed']));
  assert.deepEqual([...seeds].sort(), [0, 1, 2]);
  // This judge is deterministic: every judged item is unanimous (the echo item: three no-verdicts).
  assert.equal(summary.models['openai:tested']?.metrics['judge_agreement'], 1);

  const again = server.requests.length;
  const second = await startRun(spec({ judge }), { store });
  assert.equal(server.requests.length, again, 'model and judge calls both come from the cache');
  assert.deepEqual(second.models['openai:tested']?.metrics, summary.models['openai:tested']?.metrics);
  await store.close();
});

test('--exact-only: no judge call; non-matching calls fail and text turns are no verdict', { skip }, async () => {
  const store = await openSqliteStore(join(dir, 'exact.db'));
  const before = server.requests.length;
  const summary = await startRun(spec({ exactOnly: true }), { store });
  assert.equal(server.requests.slice(before).filter((r) => (r.body as FakeChatRequestBody).model === 'judge').length, 0);
  const entries = [...plan.values()];
  const calls = entries.filter((e) => (e.sample.target as { groundTruth: GroundTruth }).groundTruth.kind === 'call');
  const metrics = summary.models['openai:tested']?.metrics;
  assert.equal(metrics?.['pass'], calls.filter((e) => !e.judged).length);
  assert.equal(metrics?.['no_verdict'], entries.length - calls.length);
  assert.equal(summary.models['openai:tested']?.judge, undefined);
  await store.close();
});

test('a judged task without --judge or --exact-only, and a self-grading judge', { skip }, async () => {
  const store = await openSqliteStore(join(dir, 'errors.db'));
  await assert.rejects(startRun(spec({}), { store }), /graded by an LLM judge: give --judge/);
  await assert.rejects(startRun({ ...spec({ judge: { model: 'openai:judge', repeats: 1, format: 'text', maxParseRetries: 0, temperature: 0 } }), task: 'metatool/similar', options: { perTool: 1, limit: 2 } }, { store }), /scored without a judge; drop --judge/);
  const warnings: string[] = [];
  const summary = await startRun(spec({ options: { limit: 2 }, judge: { model: 'openai:tested', repeats: 1, format: 'text', maxParseRetries: 0, temperature: 0 } }), { store, onWarning: (m) => warnings.push(m) });
  assert.equal(warnings.length, 1);
  assert.match(warnings[0] ?? '', /grades its own outputs/);
  assert.equal((await store.getRun(summary.run))?.judge?.selfGrading, true);
  await store.close();
});

test('JSON verdict mode: the judge is asked for the reasons-first schema and its JSON verdicts are read', { skip }, async () => {
  const store = await openSqliteStore(join(dir, 'json.db'));
  const before = server.requests.length;
  const summary = await startRun(spec({ judge: { model: 'openai:judge', repeats: 1, format: 'json', maxParseRetries: 0, temperature: 0.1 } }), { store });
  const judgeRequests = server.requests.slice(before).filter((r) => (r.body as FakeChatRequestBody).model === 'judge');
  assert.ok(judgeRequests.length > 0);
  for (const r of judgeRequests) {
    const format = (r.body as FakeChatRequestBody)['response_format'] as { type: string; json_schema: { name: string; strict: boolean; schema: { required: string[] } } };
    assert.equal(format.type, 'json_schema');
    assert.equal(format.json_schema.strict, true);
    assert.deepEqual(format.json_schema.schema.required, ['reasoning', 'verdict']);
  }
  const entries = [...plan.values()];
  const results = await store.results(summary.run);
  for (const result of results) {
    const entry = entries.find((e) => e.sample.id === result.sampleId);
    // Same verdicts as the text mode; the echo item (not JSON) is no verdict.
    assert.equal(result.score?.value, entry?.expected, result.sampleId);
  }
  await store.close();
});

test('a judge that is down: judged items end in error (not no verdict); --retry-errors grades them again without calling the model', { skip }, async () => {
  const db = join(dir, 'outage.db');
  const store = await openSqliteStore(db);
  server.setBehavior({ faults: (ctx) => ((ctx.body as FakeChatRequestBody).model === 'judge' ? { type: 'status', status: 500 } : undefined) });
  const judge = { model: 'openai:judge', repeats: 1, format: 'text' as const, maxParseRetries: 2, temperature: 0.1 };
  let summary;
  try {
    summary = await startRun(spec({ judge, engine: { ...spec({}).engine, cache: false } }), { store });
  } finally {
    server.setBehavior({ faults: undefined });
  }
  const entries = [...plan.values()];
  const counts = summary.models['openai:tested']?.counts;
  assert.equal(counts?.errors, entries.filter((e) => e.judged).length);
  assert.deepEqual(counts?.errors_by_kind, { 'judge-server': counts?.errors });
  assert.equal(counts?.no_verdict, 0, 'an unreachable judge is an error, never a no verdict');
  assert.equal(counts?.done, entries.filter((e) => !e.judged).length);

  const before = server.requests.length;
  const resumed = await resumeRun(summary.run, { retryErrors: true, engine: { cache: true } }, { store });
  const requests = server.requests.slice(before);
  assert.equal(requests.filter((r) => (r.body as FakeChatRequestBody).model === 'tested').length, 0, 'the model outputs come from the cache');
  assert.equal(requests.filter((r) => (r.body as FakeChatRequestBody).model === 'judge').length, entries.reduce((n, e) => n + e.judgeCalls, 0));
  const model = resumed.models['openai:tested'];
  assert.equal(model?.counts.errors, 0);
  assert.equal(model?.metrics['pass'], entries.filter((e) => e.expected === true).length);
  assert.equal(model?.metrics['no_verdict'], 1);
  await store.close();
});

test('a run stopped while the judge grades: the model calls already made are kept, so resume does not ask the model again', { skip }, async () => {
  const store = await openSqliteStore(join(dir, 'stopped-judging.db'));
  const judge = { model: 'openai:judge', repeats: 1, format: 'text' as const, maxParseRetries: 2, temperature: 0.1 };
  const controller = new AbortController();
  const first = server.requests.length;
  // The judge answers slowly; the run stops as soon as a judge request is in flight.
  server.setBehavior({ latencyMs: (ctx) => ((ctx.body as FakeChatRequestBody).model === 'judge' ? 400 : 2) });
  const watcher = setInterval(() => {
    if (server.requests.slice(first).some((r) => (r.body as FakeChatRequestBody).model === 'judge')) controller.abort();
  }, 2);
  let stopped;
  try {
    stopped = await startRun(spec({ judge }), { store, signal: controller.signal });
  } finally {
    clearInterval(watcher);
    server.setBehavior({ latencyMs: 2 });
  }
  assert.equal(stopped.status, 'interrupted');
  const finished = new Set((await store.results(stopped.run)).map((r) => r.sampleId));
  const calls = await store.calls(stopped.run);
  // Samples cut short in judging: their model call is stored (with its output), they have no result.
  const cutShort = new Set(calls.filter((c) => c.role === 'test' && !finished.has(c.sampleId)).map((c) => c.sampleId));
  assert.ok(cutShort.size > 0, 'some samples were being judged when the run stopped');
  for (const call of calls.filter((c) => cutShort.has(c.sampleId) && c.role === 'test')) assert.ok(call.output !== null, call.sampleId);

  const beforeResume = server.requests.length;
  const resumed = await resumeRun(stopped.run, {}, { store });
  assert.equal(resumed.status, 'finished');
  const askedAgain = server.requests
    .slice(beforeResume)
    .filter((r) => (r.body as FakeChatRequestBody).model === 'tested')
    .map((r) => keyOf((r.body as FakeChatRequestBody).messages as { content?: unknown }[]));
  const cutShortKeys = new Set([...plan.values()].filter((e) => cutShort.has(e.sample.id)).map((e) => keyOf(e.sample.input)));
  assert.equal(askedAgain.filter((k) => cutShortKeys.has(k)).length, 0, 'the model is not asked again for a sample it had answered');
  assert.equal(askedAgain.length, LIMIT - finished.size - cutShort.size);
  const entries = [...plan.values()];
  assert.equal(resumed.models['openai:tested']?.metrics['pass'], entries.filter((e) => e.expected === true).length);
  assert.equal(resumed.models['openai:tested']?.metrics['no_verdict'], 1);
  await store.close();
});
