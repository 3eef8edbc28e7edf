import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { InputError } from '../../core/errors.js';
import Database from 'better-sqlite3';
import { composedUserMessage, sharedText, user, type GenerateResult, type Sample } from '../../core/index.js';
import type { CallRecord, ResultRecord, RunRecord } from '../records.js';
import { openSqliteStore, type SqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'assay-store-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let fileCounter = 0;
/** A fresh store in its own file, so tests do not see each other's rows. */
async function freshStore(): Promise<{ store: SqliteStore; file: string }> {
  const file = join(dir, `store-${++fileCounter}.db`);
  return { store: await openSqliteStore(file), file };
}

function makeRun(overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    id: '20260301-120000-ab12',
    task: 'metatool-awareness',
    taskVersion: '1',
    status: 'running',
    createdAt: '2026-03-01T12:00:00.000Z',
    updatedAt: '2026-03-01T12:00:00.000Z',
    models: ['openai:gpt-4o-mini', 'baseline:lexical'],
    settings: { temperature: 0, maxTokens: 256, stop: ['\n\n'] },
    seed: 42,
    options: { perTool: 3, shots: 5, prompts: 'assay', parser: 'strict' },
    datasetChecksums: { 'metatool/tool_embedding.json': 'a'.repeat(64) },
    promptVersion: 'awareness-v1',
    toolkitVersion: '0.1.0',
    engine: { concurrency: 8, retries: { max: 3 }, cache: true },
    judge: null,
    ...overrides,
  };
}

// Sample ids deliberately not in alphabetical order, so "sorted by idx" and "sorted by id" differ.
const samples: Sample[] = [
  {
    id: 'q-beta',
    input: [
      { role: 'system', content: 'You are a tool selector.' },
      { role: 'user', content: 'Which tool plays music?' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'spotify', arguments: { q: 'x' }, rawArguments: '{"q":"x"}' }] },
      { role: 'tool', toolCallId: 'c1', name: 'spotify', content: 'ok' },
    ],
    tools: [{ name: 'spotify', description: 'Plays music', parameters: { type: 'object', properties: {} } }],
    target: { tools: ['spotify'] },
    metadata: { split: 'similar', source: 'row 7', nested: { a: [1, 2, null] } },
    hints: {
      kind: 'select',
      query: 'Which tool plays music?',
      candidates: [{ name: 'spotify', description: 'Plays music' }, { name: 'weather', description: 'Forecasts' }],
      maxSelections: 1,
      allowNone: true,
    },
  },
  { id: 'q-alpha', input: [{ role: 'user', content: 'Do you need a tool? ünïcødé ✓' }], target: true, metadata: {}, hints: { kind: 'yes-no', query: 'q' } },
  { id: 'q-gamma', input: [{ role: 'user', content: 'third' }], target: null, metadata: { n: 3 } },
];

const okOutput: GenerateResult = {
  text: 'spotify',
  toolCalls: [{ id: 'call_1', name: 'spotify', arguments: { query: 'jazz' }, rawArguments: '{"query":"jazz"}' }],
  finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
  usage: { inputTokens: 120, outputTokens: 7 },
  warnings: [{ type: 'unsupported', feature: 'seed', details: 'ignored' }],
  rawResponse: { id: 'chatcmpl-9', choices: [{ index: 0 }] },
  responseModel: 'gpt-4o-mini-2024-07-18',
};

function makeCall(overrides: Partial<CallRecord> = {}): CallRecord {
  return {
    runId: '20260301-120000-ab12',
    sampleId: 'q-beta',
    modelId: 'openai:gpt-4o-mini',
    role: 'test',
    attempt: 1,
    cacheKey: 'k'.repeat(64),
    request: { messages: [{ role: 'user', content: 'Which tool plays music?' }], settings: { temperature: 0 } },
    output: okOutput,
    error: null,
    usage: { inputTokens: 120, outputTokens: 7 },
    costUsd: 0.000123,
    latencyMs: 812.25,
    startedAt: '2026-03-01T12:00:01.000Z',
    ...overrides,
  };
}

function makeResult(overrides: Partial<ResultRecord> = {}): ResultRecord {
  return {
    runId: '20260301-120000-ab12',
    sampleId: 'q-beta',
    modelId: 'openai:gpt-4o-mini',
    status: 'done',
    output: okOutput,
    score: { value: true, answer: ['spotify'], explanation: 'exact match', metadata: { parser: 'strict' } },
    error: null,
    cached: false,
    attempts: 1,
    latencyMs: 812.25,
    usage: { inputTokens: 120, outputTokens: 7 },
    costUsd: 0.000123,
    finishedAt: '2026-03-01T12:00:02.000Z',
    ...overrides,
  };
}

const errorResult = (sampleId: string, overrides: Partial<ResultRecord> = {}): ResultRecord =>
  makeResult({
    sampleId,
    status: 'error',
    output: null,
    score: null,
    error: { kind: 'server', message: 'HTTP 503: overloaded', status: 503 },
    attempts: 3,
    usage: {},
    costUsd: null,
    ...overrides,
  });

describe('round trips', () => {
  test('a run, its samples, calls and results come back exactly as written, also after reopening', async () => {
    const { store, file } = await freshStore();
    const run = makeRun();
    await store.createRun(run, samples);
    const failedCall = makeCall({ output: null, error: { kind: 'rate-limit', message: 'HTTP 429', status: 429 }, usage: {}, costUsd: null, latencyMs: 3 });
    const okCall = makeCall({ attempt: 2, usage: { inputTokens: 120 } }); // a provider that reports only input tokens
    const uncacheable = makeCall({ sampleId: 'q-gamma', modelId: 'baseline:lexical', cacheKey: null, request: undefined, costUsd: null });
    const result = makeResult({ attempts: 2 });
    const baselineResult = makeResult({ sampleId: 'q-gamma', modelId: 'baseline:lexical', cached: true, score: { value: null, explanation: 'no verdict' }, costUsd: null });
    await store.saveOutcome([failedCall, okCall], result);
    await store.saveOutcome([uncacheable], baselineResult);
    await store.close();

    const reopened = await openSqliteStore(file);
    assert.deepEqual(await reopened.getRun(run.id), run);
    assert.deepEqual(await reopened.listRuns(), [run]);
    assert.deepEqual(
      await reopened.loadSamples(run.id),
      samples.map((sample, index) => ({ ...sample, index })),
    );
    assert.deepEqual(await reopened.calls(run.id), [failedCall, okCall, uncacheable]);
    assert.deepEqual(await reopened.results(run.id), [result, baselineResult]);
    await reopened.close();
  });

  test('prompts made from shared parts are stored once per run and read back whole, in samples and in calls', async () => {
    const { store, file } = await freshStore();
    const template = sharedText('Choose one tool. '.repeat(40));
    const tool = sharedText('. tool name: spotify, tool description: Plays music\n');
    const composed = (id: string, query: string): Sample => ({ id, input: [composedUserMessage(() => [template, query, '1', tool])], target: 'spotify', metadata: {} });
    const prompt = (query: string): string => `${template.shared}${query}1${tool.shared}`;
    const runA = makeRun({ id: 'run-a' });
    const runB = makeRun({ id: 'run-b' });
    await store.createRun(runA, [composed('s1', 'play jazz'), composed('s2', 'play rock')]);
    await store.createRun(runB, [composed('s1', 'play blues')]);
    const call = makeCall({ runId: 'run-a', sampleId: 's2', request: { settings: { temperature: 0 } }, messagesFromSample: true });
    await store.saveOutcome([call], makeResult({ runId: 'run-a', sampleId: 's2' }));
    await store.close();

    const db = new Database(file, { readonly: true });
    // Each run keeps its own two texts; a sample row holds only its query and the numbers.
    assert.deepEqual(db.prepare('SELECT run_id, count(*) AS n FROM run_texts GROUP BY run_id ORDER BY run_id').all(), [
      { run_id: 'run-a', n: 2 },
      { run_id: 'run-b', n: 2 },
    ]);
    assert.equal(db.prepare("SELECT input FROM samples WHERE run_id = 'run-a' AND sample_id = 's2'").pluck().get(), '[{"role":"user","contentParts":[0,"play rock","1",1]}]');
    db.close();

    const reopened = await openSqliteStore(file);
    assert.deepEqual((await reopened.loadSamples('run-a')).map((s) => s.input), [[user(prompt('play jazz'))], [user(prompt('play rock'))]]);
    assert.deepEqual((await reopened.loadSamples('run-b')).map((s) => s.input), [[user(prompt('play blues'))]]);
    const [stored] = await reopened.calls('run-a', 's2');
    assert.deepEqual(stored?.request, { messages: [user(prompt('play rock'))], settings: { temperature: 0 } });
    await reopened.close();
  });

  test('a run stored in chunks: its count is recorded, later chunks continue the order and the texts, also from another session', async () => {
    const { store, file } = await freshStore();
    const template = sharedText('Choose one tool. '.repeat(10));
    const toolA = sharedText('. tool name: a\n');
    const toolB = sharedText('. tool name: b\n');
    const composed = (id: string, tool: typeof toolA): Sample => ({ id, input: [composedUserMessage(() => [template, id, tool])], target: null, metadata: {} });
    const all = [composed('s0', toolA), composed('s1', toolA), composed('s2', toolB), composed('s3', toolA), composed('s4', toolB)];
    const run = makeRun({ id: 'chunked', sampleCount: all.length });
    await store.createRun(run, all.slice(0, 2));
    assert.equal((await store.getRun('chunked'))?.sampleCount, 5);
    assert.equal((await store.getRun('chunked'))?.status, 'running');
    await store.addSamples('chunked', all.slice(2, 3));
    // A later chunk naming a sample the run has is refused whole.
    await assert.rejects(store.addSamples('chunked', [composed('s3', toolA), composed('s0', toolA)]), /UNIQUE|PRIMARY KEY/);
    await assert.rejects(store.addSamples('nope', all.slice(3)), (e: unknown) => e instanceof InputError && /no run nope/.test(e.message));
    await store.close();

    // Another session (after a kill) continues where the first stopped, in order and numbering.
    const resumed = await openSqliteStore(file);
    await resumed.addSamples('chunked', all.slice(3));
    const loaded = await resumed.loadSamples('chunked');
    assert.deepEqual(loaded.map((s) => [s.id, s.index]), [['s0', 0], ['s1', 1], ['s2', 2], ['s3', 3], ['s4', 4]]);
    assert.deepEqual(loaded.map((s) => s.input[0]?.content), all.map((s) => `${template.shared}${s.id}${s.id === 's2' || s.id === 's4' ? toolB.shared : toolA.shared}`));
    await resumed.close();
    const db = new Database(file, { readonly: true });
    // The first session stored each text once; the second, not knowing the first's objects, adds its own under new numbers.
    assert.deepEqual(db.prepare("SELECT text_id FROM run_texts WHERE run_id = 'chunked' ORDER BY text_id").pluck().all(), [0, 1, 2, 3, 4, 5]);
    db.close();
  });

  test('a run is refused more samples than it says it has; one created with all of them records no count', async () => {
    const { store } = await freshStore();
    await assert.rejects(store.createRun(makeRun({ id: 'short', sampleCount: 1 }), samples), /3 samples given for a run of 1/);
    assert.equal(await store.getRun('short'), undefined);
    await store.createRun(makeRun({ id: 'whole' }), samples);
    assert.equal((await store.getRun('whole'))?.sampleCount, undefined);
    await store.close();
  });

  test('a result whose output is not its call’s output keeps its own', async () => {
    const { store } = await freshStore();
    const run = makeRun();
    await store.createRun(run, samples);
    const fromCall: GenerateResult = { ...okOutput, text: 'from the call' };
    const postProcessed: GenerateResult = { ...okOutput, text: 'post-processed' };
    await store.saveOutcome([makeCall({ output: fromCall })], makeResult({ output: postProcessed }));
    assert.equal((await store.calls(run.id))[0]?.output?.text, 'from the call');
    assert.equal((await store.results(run.id))[0]?.output?.text, 'post-processed');
    await store.close();
  });

  test('undefined JSON fields stay absent and a null target stays null', async () => {
    const { store } = await freshStore();
    const run = makeRun();
    await store.createRun(run, [{ id: 'only', input: [], target: undefined, metadata: {} }, { id: 'nul', input: [], target: null, metadata: {} }]);
    const [first, second] = await store.loadSamples(run.id);
    assert.equal(first?.target, undefined);
    assert.equal(second?.target, null);
    assert.ok(first && !('tools' in first) && !('hints' in first));
    await store.close();
  });

  test('setRunStatus changes the status and the update time only', async () => {
    const { store } = await freshStore();
    const run = makeRun();
    await store.createRun(run, samples);
    const before = Date.now();
    await store.setRunStatus(run.id, 'finished');
    const stored = await store.getRun(run.id);
    assert.ok(stored);
    assert.equal(stored.status, 'finished');
    assert.ok(Date.parse(stored.updatedAt) >= before - 1000, stored.updatedAt);
    assert.deepEqual({ ...stored, status: run.status, updatedAt: run.updatedAt }, run);
    await assert.rejects(store.setRunStatus('nope', 'failed'), InputError);
    await store.close();
  });

  test('creating the same run twice is an InputError; duplicate sample ids are refused', async () => {
    const { store } = await freshStore();
    await store.createRun(makeRun(), samples);
    await assert.rejects(store.createRun(makeRun(), samples), (e: unknown) => e instanceof InputError && /already exists/.test(e.message));
    await assert.rejects(store.createRun(makeRun({ id: 'dup' }), [samples[0] as Sample, samples[0] as Sample]), /sample id "q-beta" occurs twice/);
    assert.equal(await store.getRun('dup'), undefined); // nothing half-written
    await store.close();
  });

  test('20,000 samples are stored in one go and read back in order', async () => {
    const { store } = await freshStore();
    const many: Sample[] = Array.from({ length: 20_000 }, (_, i) => ({ id: `s${(i * 7919) % 20_000}`, input: [{ role: 'user', content: `query ${i}` }], target: i % 2 === 0, metadata: { i } }));
    const run = makeRun({ id: 'big' });
    await store.createRun(run, many);
    const loaded = await store.loadSamples('big');
    assert.equal(loaded.length, 20_000);
    // Position 12,345 holds id s(12345·7919 mod 20000): 12345·7919 = 97,760,055, so s55.
    assert.deepEqual(loaded[12_345], { id: 's55', index: 12_345, input: [{ role: 'user', content: 'query 12345' }], target: false, metadata: { i: 12_345 } });
    await store.close();
  });
});

describe('judging', () => {
  test('a run’s judge, a judge call’s actor and reviews round-trip; a later review replaces an earlier one', async () => {
    const { store, file } = await freshStore();
    const judge = { model: 'openai:gpt-4o', repeats: 3, format: 'json' as const, maxParseRetries: 2, temperature: 0, selfGrading: false };
    const run = makeRun({ judge });
    await store.createRun(run, samples);
    const judgeCall = makeCall({ role: 'judge', actor: 'openai:gpt-4o', attempt: 1 });
    await store.saveOutcome([makeCall(), judgeCall], makeResult());
    const first = { runId: run.id, sampleId: 'q-gamma', modelId: 'openai:gpt-4o-mini', verdict: false, note: 'wrong unit', source: 'a.csv', reviewedAt: '2026-03-02T00:00:00.000Z' };
    const second = { ...first, sampleId: 'q-beta', verdict: true, note: '' };
    await store.saveReviews([first, second]);
    await store.saveReviews([{ ...first, verdict: true, note: 'on second thought', source: 'b.csv' }]);
    await store.close();

    const reopened = await openSqliteStore(file);
    assert.deepEqual((await reopened.getRun(run.id))?.judge, judge);
    const calls = await reopened.calls(run.id);
    assert.equal(calls[0]?.actor, undefined);
    assert.deepEqual(calls[1], judgeCall);
    // Sample order (q-beta before q-gamma), and the second file's verdict for q-gamma.
    assert.deepEqual(await reopened.reviews(run.id), [second, { ...first, verdict: true, note: 'on second thought', source: 'b.csv' }]);
    await assert.rejects(reopened.saveReviews([{ ...first, sampleId: 'no-such-sample' }]), /FOREIGN KEY/);
    assert.equal((await reopened.reviews(run.id)).length, 2);
    await reopened.close();
  });
});

describe('spend', () => {
  test('runSpend adds up each role and answering model apart: calls, failed attempts, tokens, USD, unpriced', async () => {
    const { store } = await freshStore();
    const run = makeRun();
    await store.createRun(run, samples);
    assert.deepEqual(await store.runSpend(run.id), [], 'no calls yet');
    const failed = makeCall({ attempt: 1, output: null, error: { kind: 'server', message: 'HTTP 503' }, usage: {}, costUsd: null });
    // q-beta: a failed attempt then a paid one; two judge calls, one without a known price; one simulated-user call.
    await store.saveOutcome(
      [
        failed,
        makeCall({ attempt: 2 }),
        makeCall({ role: 'judge', actor: 'openai:gpt-4o', attempt: 3, usage: { inputTokens: 900, outputTokens: 40 }, costUsd: 0.01 }),
        makeCall({ role: 'judge', actor: 'openai:gpt-4o', attempt: 4, usage: { inputTokens: 800 }, costUsd: null }),
        makeCall({ role: 'user', actor: 'openai:user', attempt: 5, usage: { inputTokens: 50, outputTokens: 5 }, costUsd: 0.0002 }),
      ],
      makeResult(),
    );
    // q-alpha, by the second model under test: a cache hit (cost 0).
    await store.saveOutcome([makeCall({ sampleId: 'q-alpha', modelId: 'baseline:lexical', costUsd: 0, usage: {} })], makeResult({ sampleId: 'q-alpha', modelId: 'baseline:lexical' }));
    assert.deepEqual(await store.runSpend(run.id), [
      { role: 'test', model: 'baseline:lexical', calls: 1, failedCalls: 0, inputTokens: 0, outputTokens: 0, usd: 0, unpriced: 0 },
      { role: 'test', model: 'openai:gpt-4o-mini', calls: 2, failedCalls: 1, inputTokens: 120, outputTokens: 7, usd: 0.000123, unpriced: 0 },
      { role: 'user', model: 'openai:user', calls: 1, failedCalls: 0, inputTokens: 50, outputTokens: 5, usd: 0.0002, unpriced: 0 },
      { role: 'judge', model: 'openai:gpt-4o', calls: 2, failedCalls: 0, inputTokens: 1700, outputTokens: 40, usd: 0.01, unpriced: 1 },
    ]);
    await store.close();
  });
});

describe('ordering', () => {
  test('results follow sample order, then the run’s model order; calls follow sample order, then save order', async () => {
    const { store } = await freshStore();
    // Model order deliberately not alphabetical: 'openai:…' sorts after 'baseline:…'.
    const run = makeRun({ models: ['openai:gpt-4o-mini', 'baseline:lexical'] });
    await store.createRun(run, samples); // order: q-beta, q-alpha, q-gamma
    const save = (sampleId: string, modelId: string) =>
      store.saveOutcome([makeCall({ sampleId, modelId })], makeResult({ sampleId, modelId }));
    await save('q-gamma', 'baseline:lexical');
    await save('q-alpha', 'baseline:lexical');
    await save('q-alpha', 'openai:gpt-4o-mini');
    await save('q-beta', 'baseline:lexical');
    await save('q-gamma', 'openai:gpt-4o-mini');

    const order = (await store.results(run.id)).map((r) => `${r.sampleId}/${r.modelId}`);
    assert.deepEqual(order, [
      'q-beta/baseline:lexical',
      'q-alpha/openai:gpt-4o-mini',
      'q-alpha/baseline:lexical',
      'q-gamma/openai:gpt-4o-mini',
      'q-gamma/baseline:lexical',
    ]);
    const baselineOnly = (await store.results(run.id, 'baseline:lexical')).map((r) => r.sampleId);
    assert.deepEqual(baselineOnly, ['q-beta', 'q-alpha', 'q-gamma']);

    const callOrder = (await store.calls(run.id)).map((c) => `${c.sampleId}/${c.modelId}`);
    assert.deepEqual(callOrder, [
      'q-beta/baseline:lexical',
      'q-alpha/baseline:lexical', // saved before the openai call of the same sample
      'q-alpha/openai:gpt-4o-mini',
      'q-gamma/baseline:lexical',
      'q-gamma/openai:gpt-4o-mini',
    ]);
    assert.deepEqual((await store.calls(run.id, 'q-alpha')).map((c) => c.modelId), ['baseline:lexical', 'openai:gpt-4o-mini']);
    await store.close();
  });

  test('listRuns is newest first, whatever the insertion order', async () => {
    const { store } = await freshStore();
    await store.createRun(makeRun({ id: 'middle', createdAt: '2026-02-01T00:00:00.000Z' }), []);
    await store.createRun(makeRun({ id: 'newest', createdAt: '2026-03-01T00:00:00.000Z' }), []);
    await store.createRun(makeRun({ id: 'oldest', createdAt: '2026-01-01T00:00:00.000Z' }), []);
    assert.deepEqual((await store.listRuns()).map((r) => r.id), ['newest', 'middle', 'oldest']);
    await store.close();
  });
});

describe('resume', () => {
  test('finishedSampleIds counts done rows, and error rows unless excluded, per model', async () => {
    const { store } = await freshStore();
    const run = makeRun();
    await store.createRun(run, samples);
    await store.saveOutcome([makeCall()], makeResult({ sampleId: 'q-beta' }));
    await store.saveOutcome([makeCall({ sampleId: 'q-alpha', output: null, error: { kind: 'server', message: '503' } })], errorResult('q-alpha'));
    await store.saveOutcome([], makeResult({ sampleId: 'q-gamma', modelId: 'baseline:lexical' }));

    assert.deepEqual(await store.finishedSampleIds(run.id, 'openai:gpt-4o-mini'), new Set(['q-beta', 'q-alpha']));
    assert.deepEqual(await store.finishedSampleIds(run.id, 'openai:gpt-4o-mini', { includeErrors: true }), new Set(['q-beta', 'q-alpha']));
    assert.deepEqual(await store.finishedSampleIds(run.id, 'openai:gpt-4o-mini', { includeErrors: false }), new Set(['q-beta']));
    assert.deepEqual(await store.finishedSampleIds(run.id, 'baseline:lexical'), new Set(['q-gamma']));
    assert.deepEqual(await store.finishedSampleIds('other-run', 'openai:gpt-4o-mini'), new Set());
    await store.close();
  });

  test('a retried sample replaces its error row in place and keeps every attempt in calls', async () => {
    const { store } = await freshStore();
    const run = makeRun();
    await store.createRun(run, samples);
    const failed = makeCall({ sampleId: 'q-alpha', output: null, error: { kind: 'timeout', message: 'no answer in 60 s' }, usage: {}, costUsd: null });
    await store.saveOutcome([failed], errorResult('q-alpha'));
    const retry = makeCall({ sampleId: 'q-alpha', startedAt: '2026-03-02T00:00:00.000Z' });
    const done = makeResult({ sampleId: 'q-alpha', finishedAt: '2026-03-02T00:00:01.000Z' });
    await store.saveOutcome([retry], done);

    assert.deepEqual(await store.results(run.id), [done]);
    assert.deepEqual(await store.finishedSampleIds(run.id, 'openai:gpt-4o-mini', { includeErrors: false }), new Set(['q-alpha']));
    assert.deepEqual(await store.calls(run.id, 'q-alpha'), [failed, retry]);
    await store.close();
  });
});

describe('integrity', () => {
  test('saveOutcome is all or nothing: an invalid result rolls back its calls', async () => {
    const { store } = await freshStore();
    const run = makeRun();
    await store.createRun(run, samples);
    // A "done" result without output breaks the records contract (and the table's CHECK).
    await assert.rejects(store.saveOutcome([makeCall()], makeResult({ output: null })), /CHECK constraint failed/);
    assert.deepEqual(await store.calls(run.id), []);
    assert.deepEqual(await store.results(run.id), []);
    await store.close();
  });

  test('a result for a sample the run does not have is refused', async () => {
    const { store } = await freshStore();
    await store.createRun(makeRun(), samples);
    await assert.rejects(store.saveOutcome([], makeResult({ sampleId: 'not-a-sample' })), /FOREIGN KEY constraint failed/);
    await assert.rejects(store.saveOutcome([makeCall({ sampleId: 'q-alpha' })], makeResult({ sampleId: 'q-beta' })), /does not belong/);
    await store.close();
  });
});

describe('call cache', () => {
  test('lookupCache returns the most recent successful output for the key, from any run, never an error', async () => {
    const { store } = await freshStore();
    await store.createRun(makeRun({ id: 'run-a' }), samples);
    await store.createRun(makeRun({ id: 'run-b' }), samples);
    const key = 'c'.repeat(64);
    const inRun = (runId: string, overrides: Partial<CallRecord>) => makeCall({ runId, cacheKey: key, ...overrides });
    const failure = { output: null, error: { kind: 'server', message: '500' } };

    assert.equal(await store.lookupCache(key), undefined);
    await store.saveOutcome([inRun('run-a', failure)], errorResult('q-beta', { runId: 'run-a' }));
    assert.equal(await store.lookupCache(key), undefined); // an error call is not a cached answer

    const first: GenerateResult = { ...okOutput, text: 'first' };
    const second: GenerateResult = { ...okOutput, text: 'second', rawResponse: undefined };
    await store.saveOutcome([inRun('run-a', { output: first })], makeResult({ runId: 'run-a', output: first }));
    assert.deepEqual(await store.lookupCache(key), first);
    await store.saveOutcome([inRun('run-b', { output: second })], makeResult({ runId: 'run-b', output: second }));
    await store.saveOutcome([inRun('run-b', { sampleId: 'q-alpha', ...failure })], errorResult('q-alpha', { runId: 'run-b' }));
    // The later error does not hide the latest success; `rawResponse: undefined` reads back as absent.
    const { rawResponse: _dropped, ...secondAsStored } = second;
    assert.deepEqual(await store.lookupCache(key), secondAsStored);
    assert.equal(await store.lookupCache('d'.repeat(64)), undefined);
    await store.close();
  });

  test('the same answers come from the merged index: after a reopen, and after 2,000 cached calls', async () => {
    const { store, file } = await freshStore();
    const many: Sample[] = Array.from({ length: 2100 }, (_, i) => ({ id: `s${i}`, input: [user(`q${i}`)], target: null, metadata: {} }));
    await store.createRun(makeRun(), many);
    const out = (i: number): GenerateResult => ({ ...okOutput, text: `answer ${i}` });
    const key = (i: number): string => `key-${i % 2050}`; // samples 2050.. repeat the first keys: the newer call must win
    const save = (i: number) => store.saveOutcome([makeCall({ sampleId: `s${i}`, cacheKey: key(i), output: out(i) })], makeResult({ sampleId: `s${i}`, output: out(i) }));
    await Promise.all(Array.from({ length: 2100 }, (_, i) => save(i)));
    const db = new Database(file, { readonly: true });
    // The batch that reached 2,000 cached calls was merged; nothing is left to merge but what came after.
    const merged = db.prepare('SELECT count(*) FROM call_cache').pluck().get() as number;
    assert.ok(merged >= 2000 && merged <= 2050, `merged ${merged}`);
    db.close();
    for (const i of [0, 49, 50, 1999, 2049]) assert.equal((await store.lookupCache(key(i)))?.text, `answer ${i < 50 ? i + 2050 : i}`);
    await store.close();

    const reopened = await openSqliteStore(file);
    for (const i of [0, 49, 50, 1999, 2049]) assert.equal((await reopened.lookupCache(key(i)))?.text, `answer ${i < 50 ? i + 2050 : i}`);
    await reopened.close();
  });

  test('another store on the file sees new cached calls once they are merged; a store that opens catches up on calls never merged', async () => {
    const { store: writer, file } = await freshStore();
    await writer.createRun(makeRun(), samples);
    const reader = await openSqliteStore(file);
    await writer.saveOutcome([makeCall({ cacheKey: 'k1' })], makeResult());
    assert.deepEqual(await writer.lookupCache('k1'), okOutput); // its own call, before any merge
    assert.equal(await reader.lookupCache('k1'), undefined); // not merged yet
    await writer.close(); // merges
    assert.deepEqual(await reader.lookupCache('k1'), okOutput);

    // A process killed before its merge: its calls are in `calls` but not in the index.
    const raw = new Database(file);
    raw
      .prepare(
        `INSERT INTO calls (run_id, sample_id, model_id, role, attempt, cache_key, request, output, error, latency_ms, started_at)
         VALUES (?, 'q-alpha', 'openai:gpt-4o-mini', 'test', 1, 'k2', NULL, ?, NULL, 1, 'now')`,
      )
      .run(makeRun().id, JSON.stringify({ ...okOutput, text: 'unmerged' }));
    raw.close();
    assert.equal(await reader.lookupCache('k2'), undefined);
    const next = await openSqliteStore(file);
    assert.equal((await next.lookupCache('k2'))?.text, 'unmerged');
    await Promise.all([next.close(), reader.close()]);
  });
});

describe('getRun by prefix', () => {
  test('exact id, unique prefix, ambiguous prefix and no match', async () => {
    const { store } = await freshStore();
    for (const id of ['20260101-000000-aaaa', '20260101-000000-aabb', '20260102-000000-cccc', '2026']) {
      await store.createRun(makeRun({ id }), []);
    }
    assert.equal((await store.getRun('20260102-000000-cccc'))?.id, '20260102-000000-cccc');
    assert.equal((await store.getRun('20260102'))?.id, '20260102-000000-cccc');
    assert.equal((await store.getRun('20260101-000000-aab'))?.id, '20260101-000000-aabb');
    // '2026' is a full id and also a prefix of every other id: the exact match wins.
    assert.equal((await store.getRun('2026'))?.id, '2026');
    await assert.rejects(store.getRun('20260101-000000-aa'), (error: unknown) => {
      assert.ok(error instanceof InputError);
      assert.match(error.message, /^run id prefix "20260101-000000-aa" is ambiguous: it matches /);
      assert.match(error.message, /20260101-000000-aaaa/);
      assert.match(error.message, /20260101-000000-aabb/);
      return true;
    });
    assert.equal(await store.getRun('20270101'), undefined);
    assert.equal(await store.getRun('%'), undefined); // no LIKE wildcards
    await assert.rejects(store.getRun(''), InputError);
    await store.close();
  });
});

describe('updateScores', () => {
  test('replaces the scores of done results; a sample without a done result rolls the batch back', async () => {
    const { store } = await freshStore();
    const run = makeRun();
    await store.createRun(run, samples);
    await store.saveOutcome([], makeResult({ sampleId: 'q-beta' }));
    await store.saveOutcome([], makeResult({ sampleId: 'q-gamma' }));
    await store.saveOutcome([], errorResult('q-alpha'));
    const model = 'openai:gpt-4o-mini';

    await store.updateScores(run.id, model, new Map([['q-beta', { value: false, answer: ['weather'] }]]));
    const scores = () => store.results(run.id).then((rows) => rows.map((r) => [r.sampleId, r.score]));
    assert.deepEqual(await scores(), [
      ['q-beta', { value: false, answer: ['weather'] }],
      ['q-alpha', null],
      ['q-gamma', makeResult().score],
    ]);

    await assert.rejects(
      store.updateScores(run.id, model, new Map([['q-gamma', { value: 0.5 }], ['q-alpha', { value: true }]])),
      /no done result for sample "q-alpha"/,
    );
    assert.deepEqual((await scores())[2], ['q-gamma', makeResult().score]); // the q-gamma update was rolled back
    await store.close();
  });
});

test('two connections on one file (e.g. `assay report` during a run) see each other’s commits', async () => {
  const { store: writer, file } = await freshStore();
  const reader = await openSqliteStore(file);
  const run = makeRun();
  await writer.createRun(run, samples);
  assert.deepEqual(await reader.getRun(run.id), run);
  await writer.saveOutcome([makeCall()], makeResult());
  await reader.saveOutcome([], errorResult('q-alpha')); // the second connection may write too
  assert.deepEqual((await writer.results(run.id)).map((r) => r.status), ['done', 'error']);
  assert.deepEqual((await reader.results(run.id)).map((r) => r.status), ['done', 'error']);
  await reader.close();
  await writer.close();
});

test('an in-memory store works for quick tests', async () => {
  const store = await openSqliteStore(':memory:');
  await store.createRun(makeRun(), samples);
  assert.equal((await store.listRuns()).length, 1);
  await store.close();
  await store.close(); // closing twice is harmless
});
