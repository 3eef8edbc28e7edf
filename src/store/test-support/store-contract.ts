import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { InputError } from '../../core/errors.js';
import { composedUserMessage, sharedText, user, type GenerateResult, type Sample } from '../../core/index.js';
import type { CallRecord, FailFastStop, LeaseHolder, ResultRecord, ReviewRecord, RunRecord, SuiteRunRecord } from '../records.js';
import { engineView, queueOf, stopsInEvents } from '../run-events.js';
import type { Store } from '../store.js';
import { runCopyContract } from './run-copy-contract.js';

/**
 * The `Store` contract as tests: what every backend must do the same way, registered for one
 * backend by `storeContract`. SQLite runs it in `npm test` (`sqlite/sqlite-contract.test.ts`),
 * PostgreSQL in `npm run test:services` (`postgres/postgres-store.services.test.ts`). What only
 * one backend does (SQLite's shared prompt texts and batched cache index, PostgreSQL's
 * migrations table) is tested beside that backend.
 */

/** One empty store location of a backend (a new file, a new schema). */
export interface StoreLocation {
  /** Opens a connection to it, as one process would; each call opens another (two processes on one store). */
  open(): Promise<Store>;
}

export interface ContractBackend {
  readonly name: string;
  /** A new, empty location of its own, so tests do not see each other's rows. */
  fresh(): Promise<StoreLocation>;
}

const RUN_ID = '20260301-120000-ab12';

/** The part of `makeRun`'s provenance the runs table keeps in columns of its own. */
const CHECKSUMS_AND_VERSIONS = { datasetChecksums: { 'metatool/tool_embedding.json': 'a'.repeat(64) }, promptVersion: 'awareness-v1', toolkitVersion: '0.1.0' };

export function makeRun(overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    id: RUN_ID,
    task: 'metatool-awareness',
    taskVersion: '1',
    status: 'running',
    createdAt: '2026-03-01T12:00:00.000Z',
    updatedAt: '2026-03-01T12:00:00.000Z',
    models: ['openai:gpt-4o-mini', 'baseline:lexical'],
    settings: { temperature: 0, maxTokens: 256, stop: ['\n\n'] },
    seed: 42,
    options: { perTool: 3, shots: 5, prompts: 'assay', parser: 'strict' },
    engine: { concurrency: 8, retry: { maxRetries: 3, baseDelayMs: 10, maxDelayMs: 100 }, cache: true },
    provenance: { ...CHECKSUMS_AND_VERSIONS, dataDir: '/data', modifiedData: [{ file: 'metatool/tool_embedding.json', pinned: 'b'.repeat(64), actual: 'a'.repeat(64) }] },
    events: [],
    judge: null,
    ...overrides,
  };
}

// Sample ids deliberately not in alphabetical order, so "sorted by idx" and "sorted by id" differ.
export const samples: Sample[] = [
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

export const okOutput: GenerateResult = {
  text: 'spotify',
  toolCalls: [{ id: 'call_1', name: 'spotify', arguments: { query: 'jazz' }, rawArguments: '{"query":"jazz"}' }],
  finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
  usage: { inputTokens: 120, outputTokens: 7 },
  warnings: [{ type: 'unsupported', feature: 'seed', details: 'ignored' }],
  rawResponse: { id: 'chatcmpl-9', choices: [{ index: 0 }] },
  responseModel: 'gpt-4o-mini-2024-07-18',
};

export function makeCall(overrides: Partial<CallRecord> = {}): CallRecord {
  return {
    runId: RUN_ID,
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

export function makeResult(overrides: Partial<ResultRecord> = {}): ResultRecord {
  return {
    runId: RUN_ID,
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

export const errorResult = (sampleId: string, overrides: Partial<ResultRecord> = {}): ResultRecord =>
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

const alice: LeaseHolder = { id: 'holder-a', pid: 101, host: 'host-a' };
const bob: LeaseHolder = { id: 'holder-b', pid: 202, host: 'host-b' };

/** Registers the contract's tests for `backend`, in one `describe` named after it. */
export function storeContract(backend: ContractBackend): void {
  /** A store on a new location, and a way to open the same location again. */
  async function freshStore(): Promise<{ store: Store; reopen: () => Promise<Store> }> {
    const location = await backend.fresh();
    return { store: await location.open(), reopen: () => location.open() };
  }

  /** Runs `body` on a fresh store and closes every store it opened, also when it fails. */
  function withStores(body: (store: Store, reopen: () => Promise<Store>) => Promise<void>): () => Promise<void> {
    return async () => {
      const { store, reopen } = await freshStore();
      const opened: Store[] = [store];
      try {
        await body(store, async () => {
          const another = await reopen();
          opened.push(another);
          return another;
        });
      } finally {
        await Promise.all(opened.map((s) => s.close()));
      }
    };
  }

  describe(`Store contract: ${backend.name}`, () => {
    runCopyContract((count, body) => async () => {
      const locations = await Promise.all(Array.from({ length: count }, () => backend.fresh()));
      const opened: Store[] = await Promise.all(locations.map((l) => l.open()));
      const extra: Store[] = [];
      try {
        await body(opened, async (i) => {
          const another = await (locations[i] as StoreLocation).open();
          extra.push(another);
          return another;
        });
      } finally {
        await Promise.all([...opened, ...extra].map((s) => s.close()));
      }
    });
    describe('round trips', () => {
      test('a suite run\'s gate outcomes come back exactly as written, also from another connection; a second decision replaces the first; an unknown id is undefined', withStores(async (store, reopen) => {
        const record: SuiteRunRecord = {
          id: 'suite-20260301-120000-ab12',
          suite: 'release',
          decidedAt: '2026-03-01T12:30:00.000Z',
          runs: [{ entry: 0, task: 'cases', run: RUN_ID, status: 'finished' }, { entry: 1, task: 'harm/system-prompt-leakage' }],
          gates: [
            { kind: 'threshold', entry: 'cases', task: 'cases', model: 'bot', metric: 'pass_rate', unit: 'share', rule: 'min 95.0%', outcome: 'pass', value: 0.96, interval: { low: 0.8654, high: 0.989 }, relation: 'straddles', reason: '96.0% meets min 95.0% — “ünïcødé” ✓' },
            { kind: 'threshold', entry: 'harm/system-prompt-leakage', task: 'harm/system-prompt-leakage', model: 'bot', metric: 'defect_rate', rule: 'max 0.05, confident', outcome: 'inconclusive', value: null, interval: null, relation: 'none', reason: 'the entry did not run' },
            { kind: 'regression', entry: 'cases', task: 'cases', model: 'bot', metric: 'pass_rate', unit: 'share', rule: 'no regression beyond −2.0% vs run X', outcome: 'fail', value: -0.25, interval: { low: -0.5, high: -0.0625 }, relation: 'misses', reason: 'a regression' },
          ],
          baseline: 'suite-20260228-120000-cd34',
          strict: false,
          sampleErrors: 2,
          interrupted: true,
          exitCode: 130,
        };
        assert.equal(await store.suiteRun(record.id), undefined);
        await store.saveSuiteRun(record);
        const other = await reopen();
        assert.deepEqual(await other.suiteRun(record.id), record);
        // A resume to the end decides again: the record is replaced whole (no baseline now, no errors).
        const { baseline: _dropped, ...rest } = record;
        const again: SuiteRunRecord = { ...rest, decidedAt: '2026-03-01T13:00:00.000Z', runs: [record.runs[0] as SuiteRunRecord['runs'][number], { entry: 1, task: 'harm/system-prompt-leakage', run: '20260301-125900-ef56', status: 'finished' }], sampleErrors: 0, interrupted: false, exitCode: 4 };
        await other.saveSuiteRun(again);
        assert.deepEqual(await store.suiteRun(record.id), again);
        assert.equal(await store.suiteRun('suite-20260301'), undefined, 'exact ids only, no prefix');
      }));

      test('a run, its samples, calls and results come back exactly as written, also from another connection', withStores(async (store, reopen) => {
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

        const reopened = await reopen();
        assert.deepEqual(await reopened.getRun(run.id), run);
        assert.deepEqual(await reopened.listRuns(), [run]);
        assert.deepEqual(
          await reopened.loadSamples(run.id),
          samples.map((sample, index) => ({ ...sample, index })),
        );
        assert.deepEqual(await reopened.calls(run.id), [failedCall, okCall, uncacheable]);
        assert.deepEqual(await reopened.results(run.id), [result, baselineResult]);
      }));

      test('samples and results read a page at a time: by sample position, with or without a model and outputs; past the end empty', withStores(async (store) => {
        const run = makeRun();
        await store.createRun(run, samples);
        // Results saved out of sample order: a page is by the samples' positions, not by when results came.
        const gammaBaseline = makeResult({ sampleId: 'q-gamma', modelId: 'baseline:lexical', costUsd: null });
        const alpha = makeResult({ sampleId: 'q-alpha' });
        const beta = makeResult({ sampleId: 'q-beta' });
        const gamma = errorResult('q-gamma');
        for (const r of [gammaBaseline, alpha, beta, gamma]) await store.saveOutcome([], r);
        const indexed = samples.map((sample, index) => ({ ...sample, index }));
        assert.deepEqual(await store.loadSamples(run.id, { from: 1, limit: 2 }), indexed.slice(1, 3));
        assert.deepEqual(await store.loadSamples(run.id, { from: 0, limit: 1 }), indexed.slice(0, 1));
        assert.deepEqual(await store.loadSamples(run.id, { from: 3, limit: 10 }), []);
        assert.deepEqual(await store.loadSamples(run.id, { from: 0, limit: 0 }), []);
        // The facts alone: what loadSamples reads of id, target and metadata, no input, tools or hints.
        const facts = indexed.map(({ id, index, target, metadata }) => ({ id, index, target, metadata }));
        assert.deepEqual(await store.sampleFacts(run.id), facts);
        assert.deepEqual(await store.sampleFacts(run.id, { from: 1, limit: 2 }), facts.slice(1, 3));
        assert.deepEqual(await store.sampleFacts(run.id, { from: 3, limit: 10 }), []);
        await assert.rejects(store.sampleFacts(run.id, { from: -1, limit: 2 }), RangeError);
        // Positions 1 and 2 are q-alpha and q-gamma; q-gamma's results in the run's model order.
        assert.deepEqual(await store.results(run.id, undefined, { range: { from: 1, limit: 2 } }), [alpha, gamma, gammaBaseline]);
        assert.deepEqual(await store.results(run.id, 'baseline:lexical', { range: { from: 0, limit: 2 } }), []);
        assert.deepEqual(await store.results(run.id, 'openai:gpt-4o-mini', { range: { from: 0, limit: 2 } }), [beta, alpha]);
        assert.deepEqual(
          (await store.results(run.id, 'openai:gpt-4o-mini', { outputs: false, range: { from: 2, limit: 5 } })).map((r) => [r.sampleId, r.status, r.output]),
          [['q-gamma', 'error', null]],
        );
        assert.deepEqual(await store.results(run.id, undefined, { range: { from: 3, limit: 1 } }), []);
        // A summary's read: each result's facts, as results reads them, in no particular order.
        const factsOf = ({ sampleId, modelId, repeat, status, score, error, cached, usage, costUsd }: ResultRecord) => ({ sampleId, modelId, ...(repeat !== undefined ? { repeat } : {}), status, score, error, cached, usage, costUsd });
        const byKey = (a: { sampleId: string; modelId: string }, b: { sampleId: string; modelId: string }): number => `${a.sampleId} ${a.modelId}`.localeCompare(`${b.sampleId} ${b.modelId}`);
        assert.deepEqual((await store.resultFacts(run.id, { from: 1, limit: 2 })).sort(byKey), [alpha, gamma, gammaBaseline].map(factsOf).sort(byKey));
        assert.deepEqual((await store.resultFacts(run.id)).sort(byKey), (await store.results(run.id)).map(factsOf).sort(byKey));
        assert.deepEqual(await store.resultFacts(run.id, { from: 3, limit: 1 }), []);
        // The pages together are the whole.
        const paged = [...(await store.results(run.id, undefined, { range: { from: 0, limit: 2 } })), ...(await store.results(run.id, undefined, { range: { from: 2, limit: 2 } }))];
        assert.deepEqual(paged, await store.results(run.id));
        await assert.rejects(store.loadSamples(run.id, { from: -1, limit: 2 }), RangeError);
      }));

      test('setRunStatus with a failFast event: the run interrupted with the stops added to those it records, each once; its other settings kept; continueRun: running again with new settings; an unknown run refused', withStores(async (store, reopen) => {
        const run = makeRun();
        await store.createRun(run, samples);
        const auth: FailFastStop = { actor: 'openai:gpt-4o-mini', role: 'test', kind: 'auth', message: 'HTTP 401: bad key', count: 1 };
        const judge: FailFastStop = { actor: 'openai:judge', role: 'judge', kind: 'not-found', message: 'no such model', count: 1 };
        await store.setRunStatus(run.id, 'interrupted', { type: 'failFast', stops: [auth] });
        // A second worker stopping the same model for the same reason, and another the judge.
        await (await reopen()).setRunStatus(run.id, 'interrupted', { type: 'failFast', stops: [{ ...auth, count: 2 }, judge] });
        // A third stopping a model already stopped adds no event.
        await store.setRunStatus(run.id, 'interrupted', { type: 'failFast', stops: [auth] });
        const stopped = await store.getRun(run.id);
        assert.ok(stopped);
        assert.equal(stopped.status, 'interrupted');
        assert.deepEqual(stopsInEvents(stopped.events), [auth, judge]);
        assert.deepEqual(stopped.events.map((e) => (e.type === 'failFast' ? e.stops : e.type)), [[auth], [judge]], 'appended, each stop once');
        assert.ok(stopped.events.every((e) => typeof e.at === 'string' && !Number.isNaN(Date.parse(e.at))), 'each event has its time');
        assert.deepEqual([stopped.engine, stopped.provenance], [run.engine, run.provenance]);
        await assert.rejects(store.setRunStatus('no-such-run', 'interrupted', { type: 'failFast', stops: [auth] }), InputError);
        // A resume on the queue: running again, with the settings it gives, its submission appended (the stops cleared).
        const engine = { ...run.engine, maxCostUsd: 12.5 };
        await store.continueRun(run.id, engine, { queue: 'units', session: 's1' });
        const continued = await (await reopen()).getRun(run.id);
        assert.ok(continued);
        assert.equal(continued.status, 'running');
        assert.deepEqual(continued.engine, engine);
        assert.deepEqual(queueOf(continued), { name: 'units', session: 's1' });
        assert.deepEqual(stopsInEvents(continued.events), []);
        assert.deepEqual(continued.events.map((e) => e.type), ['failFast', 'failFast', 'submitted'], 'the earlier events kept');
        await assert.rejects(store.continueRun('no-such-run', engine), InputError);
        // An in-process resume: its event goes with the status.
        await store.setRunStatus(run.id, 'running', { type: 'resumed' });
        assert.deepEqual((await (await reopen()).getRun(run.id))?.events.map((e) => e.type), ['failFast', 'failFast', 'submitted', 'resumed']);
        await assert.rejects(store.setRunStatus('no-such-run', 'running', { type: 'resumed' }), InputError);
      }));

      test('a run’s simulated user, metrics facts and a result’s transcript round-trip', withStores(async (store, reopen) => {
        const run = makeRun({ userModel: 'openai:user', metricsFacts: { guideline: 'be kind', labels: [{ id: 'x', harm: 2 }], none: null } });
        await store.createRun(run, samples);
        const transcript = [
          { role: 'user' as const, step: 'turn 1/user', model: 'openai:user', text: 'hello' },
          { role: 'test' as const, step: 'turn 1/test', model: 'openai:gpt-4o-mini', text: null, error: { kind: 'server', message: '503' } },
          { role: 'test' as const, step: 'turn 2/test', model: 'openai:gpt-4o-mini', text: '', toolCalls: okOutput.toolCalls ?? [] },
        ];
        const result = makeResult({ transcript, attempts: 3 });
        await store.saveOutcome([makeCall({ role: 'user', actor: 'openai:user', step: 'turn 1/user' }), makeCall({ attempt: 2, step: 'turn 1/test' })], result);
        const other = await reopen();
        assert.deepEqual(await other.getRun(run.id), run);
        assert.deepEqual(await other.results(run.id), [result]);
        // Without outputs (summaries), the transcript is left out too.
        const { transcript: _left, ...withoutTranscript } = result;
        assert.deepEqual((await other.results(run.id, undefined, { outputs: false }))[0], { ...withoutTranscript, output: null });
        assert.deepEqual((await other.calls(run.id)).map((c) => [c.role, c.actor, c.step]), [['user', 'openai:user', 'turn 1/user'], ['test', undefined, 'turn 1/test']]);
      }));

      test('a call whose messages are the sample’s input reads back with them; composed prompts read back as their text', withStores(async (store, reopen) => {
        const template = sharedText('Choose one tool. '.repeat(40));
        const tool = sharedText('. tool name: spotify, tool description: Plays music\n');
        const composed = (id: string, query: string): Sample => ({ id, input: [composedUserMessage(() => [template, query, '1', tool])], target: 'spotify', metadata: {} });
        const prompt = (query: string): string => `${template.shared}${query}1${tool.shared}`;
        const runA = makeRun({ id: 'run-a' });
        await store.createRun(runA, [composed('s1', 'play jazz'), composed('s2', 'play rock')]);
        const request = { settings: { temperature: 0 } };
        const attempts = [
          makeCall({ runId: 'run-a', sampleId: 's2', request, messagesFromSample: true, output: null, error: { kind: 'timeout', message: 'slow' } }),
          makeCall({ runId: 'run-a', sampleId: 's2', request, messagesFromSample: true, attempt: 2 }),
        ];
        await store.saveOutcome(attempts, makeResult({ runId: 'run-a', sampleId: 's2' }));
        const other = await reopen();
        assert.deepEqual((await other.loadSamples('run-a')).map((s) => s.input), [[user(prompt('play jazz'))], [user(prompt('play rock'))]]);
        const stored = await other.calls('run-a', 's2');
        assert.deepEqual(stored.map((c) => c.request), [
          { messages: [user(prompt('play rock'))], settings: { temperature: 0 } },
          { messages: [user(prompt('play rock'))], settings: { temperature: 0 } },
        ]);
        assert.ok(stored.every((c) => !('messagesFromSample' in c)), 'a call read back carries its messages, not the flag');
      }));

      test('a run stored in chunks: its count is recorded, later chunks continue the order, also from another connection', withStores(async (store, reopen) => {
        const template = sharedText('Choose one tool. '.repeat(10));
        const composed = (id: string): Sample => ({ id, input: [composedUserMessage(() => [template, id])], target: null, metadata: {} });
        const all = ['s0', 's1', 's2', 's3', 's4'].map(composed);
        const run = makeRun({ id: 'chunked', sampleCount: all.length });
        await store.createRun(run, all.slice(0, 2));
        assert.equal((await store.getRun('chunked'))?.sampleCount, 5);
        assert.equal((await store.getRun('chunked'))?.status, 'running');
        await store.addSamples('chunked', all.slice(2, 3));
        // A later chunk naming a sample the run has is refused whole.
        await assert.rejects(store.addSamples('chunked', [composed('s3'), composed('s0')]));
        await assert.rejects(store.addSamples('nope', all.slice(3)), (e: unknown) => e instanceof InputError && /no run nope/.test(e.message));
        await store.close();

        // Another session (after a kill) continues where the first stopped.
        const resumed = await reopen();
        await resumed.addSamples('chunked', all.slice(3));
        const loaded = await resumed.loadSamples('chunked');
        assert.deepEqual(loaded.map((s) => [s.id, s.index]), [['s0', 0], ['s1', 1], ['s2', 2], ['s3', 3], ['s4', 4]]);
        assert.deepEqual(loaded.map((s) => s.input[0]?.content), all.map((s) => `${template.shared}${s.id}`));
      }));

      test('a run is refused more samples than it says it has; one created with all of them records no count', withStores(async (store) => {
        await assert.rejects(store.createRun(makeRun({ id: 'short', sampleCount: 1 }), samples), /3 samples given for a run of 1/);
        assert.equal(await store.getRun('short'), undefined);
        await store.createRun(makeRun({ id: 'whole' }), samples);
        assert.equal((await store.getRun('whole'))?.sampleCount, undefined);
      }));

      test('a result whose output is not its call’s output keeps its own', withStores(async (store) => {
        const run = makeRun();
        await store.createRun(run, samples);
        const fromCall: GenerateResult = { ...okOutput, text: 'from the call' };
        const postProcessed: GenerateResult = { ...okOutput, text: 'post-processed' };
        await store.saveOutcome([makeCall({ output: fromCall })], makeResult({ output: postProcessed }));
        assert.equal((await store.calls(run.id))[0]?.output?.text, 'from the call');
        assert.equal((await store.results(run.id))[0]?.output?.text, 'post-processed');
      }));

      test('undefined JSON fields stay absent, a null target stays null, odd text survives', withStores(async (store) => {
        const run = makeRun();
        const odd = 'nul \u0000, lone surrogate \ud800, emoji 🧪, quote " and backslash \\';
        await store.createRun(run, [
          { id: 'only', input: [], target: undefined, metadata: {} },
          { id: 'nul', input: [user(odd)], target: null, metadata: { odd } },
        ]);
        const [first, second] = await store.loadSamples(run.id);
        assert.equal(first?.target, undefined);
        assert.equal(second?.target, null);
        assert.ok(first && !('tools' in first) && !('hints' in first));
        // JSON escapes a NUL and a lone surrogate: what was sent reads back exactly.
        assert.deepEqual(second?.input, [user(odd)]);
        const output: GenerateResult = { ...okOutput, text: odd };
        await store.saveOutcome([makeCall({ sampleId: 'nul', output })], makeResult({ sampleId: 'nul', output }));
        assert.equal((await store.results(run.id))[0]?.output?.text, odd);
      }));

      test('setRunStatus changes the status and the update time only', withStores(async (store) => {
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
      }));

      test('creating the same run twice is an InputError; duplicate sample ids are refused', withStores(async (store) => {
        await store.createRun(makeRun(), samples);
        await assert.rejects(store.createRun(makeRun(), samples), (e: unknown) => e instanceof InputError && /already exists/.test(e.message));
        await assert.rejects(store.createRun(makeRun({ id: 'dup' }), [samples[0] as Sample, samples[0] as Sample]), /sample id "q-beta" occurs twice/);
        assert.equal(await store.getRun('dup'), undefined); // nothing half-written
      }));

      test('20,000 samples are stored in one go and read back in order', withStores(async (store) => {
        const many: Sample[] = Array.from({ length: 20_000 }, (_, i) => ({ id: `s${(i * 7919) % 20_000}`, input: [{ role: 'user', content: `query ${i}` }], target: i % 2 === 0, metadata: { i } }));
        await store.createRun(makeRun({ id: 'big' }), many);
        const loaded = await store.loadSamples('big');
        assert.equal(loaded.length, 20_000);
        // Position 12,345 holds id s(12345·7919 mod 20000): 12345·7919 = 97,760,055, so s55.
        assert.deepEqual(loaded[12_345], { id: 's55', index: 12_345, input: [{ role: 'user', content: 'query 12345' }], target: false, metadata: { i: 12_345 } });
      }));
    });

    describe('judging', () => {
      test('a run’s judge, a judge call’s actor and reviews round-trip; a later review replaces an earlier one', withStores(async (store, reopen) => {
        const judge = { model: 'openai:gpt-4o', repeats: 3, format: 'json' as const, maxParseRetries: 2, temperature: 0, selfGrading: false };
        const run = makeRun({ judge });
        await store.createRun(run, samples);
        const judgeCall = makeCall({ role: 'judge', actor: 'openai:gpt-4o', attempt: 1 });
        await store.saveOutcome([makeCall(), judgeCall], makeResult());
        const first: ReviewRecord = { runId: run.id, sampleId: 'q-gamma', modelId: 'openai:gpt-4o-mini', verdict: false, note: 'wrong unit', source: 'a.csv', reviewedAt: '2026-03-02T00:00:00.000Z' };
        const second: ReviewRecord = { ...first, sampleId: 'q-beta', verdict: true, note: '' };
        await store.saveReviews([first, second]);
        await store.saveReviews([{ ...first, verdict: true, note: 'on second thought', source: 'b.csv' }]);
        await store.close();

        const reopened = await reopen();
        assert.deepEqual((await reopened.getRun(run.id))?.judge, judge);
        const calls = await reopened.calls(run.id);
        assert.equal(calls[0]?.actor, undefined);
        assert.deepEqual(calls[1], judgeCall);
        // Sample order (q-beta before q-gamma), and the second file's verdict for q-gamma.
        assert.deepEqual(await reopened.reviews(run.id), [second, { ...first, verdict: true, note: 'on second thought', source: 'b.csv' }]);
        // All or none: a review of an item the run does not have sinks the batch.
        await assert.rejects(reopened.saveReviews([{ ...second, note: 'changed' }, { ...first, sampleId: 'no-such-sample' }]), /foreign key/i);
        assert.deepEqual((await reopened.reviews(run.id))[0], second);
      }));
    });

    describe('spend', () => {
      test('runSpend adds up each role and answering model apart: calls, failed attempts, tokens, USD, unpriced', withStores(async (store) => {
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
        // Cut-short work (saveCalls) counts too.
        await store.saveCalls([makeCall({ sampleId: 'q-gamma', modelId: 'baseline:lexical', costUsd: 0, usage: {} })]);
        assert.deepEqual(await store.runSpend(run.id), [
          { role: 'test', model: 'baseline:lexical', calls: 2, failedCalls: 0, inputTokens: 0, outputTokens: 0, usd: 0, unpriced: 0 },
          { role: 'test', model: 'openai:gpt-4o-mini', calls: 2, failedCalls: 1, inputTokens: 120, outputTokens: 7, usd: 0.000123, unpriced: 0 },
          { role: 'user', model: 'openai:user', calls: 1, failedCalls: 0, inputTokens: 50, outputTokens: 5, usd: 0.0002, unpriced: 0 },
          { role: 'judge', model: 'openai:gpt-4o', calls: 2, failedCalls: 0, inputTokens: 1700, outputTokens: 40, usd: 0.01, unpriced: 1 },
        ]);
        assert.deepEqual(await store.finishedSampleIds(run.id, 'baseline:lexical'), new Set(['q-alpha']), 'saveCalls leaves its sample unfinished');
      }));
    });

    describe('report reads', () => {
      test('stepCounts counts one role’s calls per model and step label (unlabelled first); callsOf reads the calls of several samples in order', withStores(async (store) => {
        const run = makeRun();
        await store.createRun(run, samples);
        await store.saveOutcome(
          [
            makeCall({ attempt: 1 }),
            makeCall({ role: 'judge', actor: 'openai:gpt-4o', attempt: 2, step: 'verdict' }),
            makeCall({ role: 'judge', actor: 'openai:gpt-4o', attempt: 3, step: 'verdict#2' }),
            makeCall({ role: 'judge', actor: 'openai:gpt-4o', attempt: 4 }),
          ],
          makeResult(),
        );
        await store.saveOutcome(
          [makeCall({ sampleId: 'q-gamma', attempt: 1 }), makeCall({ sampleId: 'q-gamma', role: 'judge', actor: 'openai:gpt-4o', attempt: 2, step: 'verdict' })],
          makeResult({ sampleId: 'q-gamma' }),
        );
        assert.deepEqual(await store.stepCounts(run.id, 'judge'), [
          { model: 'openai:gpt-4o-mini', step: null, calls: 1 },
          { model: 'openai:gpt-4o-mini', step: 'verdict', calls: 2 },
          { model: 'openai:gpt-4o-mini', step: 'verdict#2', calls: 1 },
        ]);
        assert.deepEqual(await store.stepCounts(run.id, 'user'), []);
        // Sample order (q-beta before q-gamma), then save order; the same rows `calls` gives.
        const both = await store.callsOf(run.id, ['q-gamma', 'q-beta']);
        assert.deepEqual(both, await store.calls(run.id));
        assert.deepEqual((await store.callsOf(run.id, ['q-gamma'])).map((c) => c.attempt), [1, 2]);
        assert.deepEqual(await store.callsOf(run.id, []), []);
      }));
    });

    describe('viewer reads', () => {
      test('resultCounts counts done and error results per model; resultsOf and samplesOf read a few samples, outputs included, in order', withStores(async (store) => {
        const run = makeRun();
        await store.createRun(run, samples);
        assert.deepEqual(await store.resultCounts(run.id), [], 'no results yet');
        await store.saveOutcome([makeCall()], makeResult());
        await store.saveOutcome([makeCall({ sampleId: 'q-gamma' })], makeResult({ sampleId: 'q-gamma', score: { value: null, explanation: 'no verdict' } }));
        await store.saveOutcome([makeCall({ sampleId: 'q-alpha', output: null, error: { kind: 'server', message: 'HTTP 503' } })], errorResult('q-alpha'));
        await store.saveOutcome([makeCall({ sampleId: 'q-alpha', modelId: 'baseline:lexical' })], makeResult({ sampleId: 'q-alpha', modelId: 'baseline:lexical' }));
        assert.deepEqual(await store.resultCounts(run.id), [
          { model: 'baseline:lexical', done: 1, errors: 0 },
          { model: 'openai:gpt-4o-mini', done: 2, errors: 1 },
        ]);
        // The rows `results` gives for these samples, in the same order, outputs included.
        const all = await store.results(run.id);
        const some = await store.resultsOf(run.id, ['q-gamma', 'q-alpha']);
        assert.deepEqual(some, all.filter((r) => r.sampleId !== 'q-beta'));
        assert.deepEqual(some.find((r) => r.sampleId === 'q-gamma')?.output, okOutput);
        assert.deepEqual(await store.resultsOf(run.id, []), []);
        // Samples in run order, as loadSamples gives them; an id the run lacks is left out.
        const loaded = await store.loadSamples(run.id);
        assert.deepEqual(await store.samplesOf(run.id, ['q-gamma', 'q-beta', 'no-such']), [loaded[0], loaded[2]]);
        assert.deepEqual(await store.samplesOf(run.id, []), []);
      }));
    });

    describe('ordering', () => {
      test('results follow sample order, then the run’s model order; calls follow sample order, then save order', withStores(async (store) => {
        // Model order deliberately not alphabetical: 'openai:…' sorts after 'baseline:…'.
        const run = makeRun({ models: ['openai:gpt-4o-mini', 'baseline:lexical'] });
        await store.createRun(run, samples); // order: q-beta, q-alpha, q-gamma
        const save = (sampleId: string, modelId: string) => store.saveOutcome([makeCall({ sampleId, modelId })], makeResult({ sampleId, modelId }));
        await save('q-gamma', 'baseline:lexical');
        await save('q-alpha', 'baseline:lexical');
        await save('q-alpha', 'openai:gpt-4o-mini');
        await save('q-beta', 'baseline:lexical');
        await save('q-gamma', 'openai:gpt-4o-mini');

        const order = (await store.results(run.id)).map((r) => `${r.sampleId}/${r.modelId}`);
        assert.deepEqual(order, ['q-beta/baseline:lexical', 'q-alpha/openai:gpt-4o-mini', 'q-alpha/baseline:lexical', 'q-gamma/openai:gpt-4o-mini', 'q-gamma/baseline:lexical']);
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
      }));

      test('a model the run does not list comes before the listed ones, by id (as SQLite always did)', withStores(async (store) => {
        const run = makeRun({ models: ['openai:b', 'openai:a'] });
        await store.createRun(run, samples.slice(0, 1));
        for (const modelId of ['openai:a', 'openai:b', 'openai:z', 'openai:y']) await store.saveOutcome([], makeResult({ modelId }));
        assert.deepEqual((await store.results(run.id)).map((r) => r.modelId), ['openai:y', 'openai:z', 'openai:b', 'openai:a']);
      }));

      test('listRuns is newest first, whatever the insertion order; ids compare byte by byte', withStores(async (store) => {
        await store.createRun(makeRun({ id: 'middle', createdAt: '2026-02-01T00:00:00.000Z' }), []);
        await store.createRun(makeRun({ id: 'newest', createdAt: '2026-03-01T00:00:00.000Z' }), []);
        await store.createRun(makeRun({ id: 'oldest', createdAt: '2026-01-01T00:00:00.000Z' }), []);
        await store.createRun(makeRun({ id: 'Oldest', createdAt: '2026-01-01T00:00:00.000Z' }), []);
        assert.deepEqual((await store.listRuns()).map((r) => r.id), ['newest', 'middle', 'oldest', 'Oldest']);
      }));
    });

    describe('resume', () => {
      test('finishedSampleIds counts done rows, and error rows unless excluded, per model', withStores(async (store) => {
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
      }));

      test('a retried sample (replaceError) replaces its error row in place and keeps every attempt in calls', withStores(async (store) => {
        const run = makeRun();
        await store.createRun(run, samples);
        const failed = makeCall({ sampleId: 'q-alpha', output: null, error: { kind: 'timeout', message: 'no answer in 60 s' }, usage: {}, costUsd: null });
        assert.equal(await store.saveOutcome([failed], errorResult('q-alpha')), true);
        const retry = makeCall({ sampleId: 'q-alpha', startedAt: '2026-03-02T00:00:00.000Z' });
        const done = makeResult({ sampleId: 'q-alpha', finishedAt: '2026-03-02T00:00:01.000Z' });
        assert.equal(await store.saveOutcome([retry], done, { replaceError: true }), true);

        assert.deepEqual(await store.results(run.id), [done]);
        assert.deepEqual(await store.finishedSampleIds(run.id, 'openai:gpt-4o-mini', { includeErrors: false }), new Set(['q-alpha']));
        assert.deepEqual(await store.calls(run.id, 'q-alpha'), [failed, retry]);
      }));

      test('saveOutcome is once per unit: a second save of (run, sample, model) writes nothing, calls included, and says so', withStores(async (store, reopen) => {
        const run = makeRun();
        await store.createRun(run, samples);
        const first = makeResult({ sampleId: 'q-beta' });
        assert.equal(await store.saveOutcome([makeCall()], first), true);
        // A redelivered job: the same unit saved again, with other calls and another result.
        const again = await reopen();
        assert.equal(await again.saveOutcome([makeCall({ attempt: 1, startedAt: '2026-03-03T00:00:00.000Z' }), makeCall({ attempt: 2 })], makeResult({ sampleId: 'q-beta', finishedAt: '2026-03-03T00:00:09.000Z' })), false);
        // A done result is never replaced, not even with replaceError.
        assert.equal(await again.saveOutcome([makeCall({ attempt: 3 })], errorResult('q-beta'), { replaceError: true }), false);
        assert.deepEqual(await store.results(run.id), [first]);
        assert.equal((await store.calls(run.id, 'q-beta')).length, 1);
        // An error result is final too, unless the save may replace it.
        assert.equal(await store.saveOutcome([], errorResult('q-alpha')), true);
        assert.equal(await store.saveOutcome([makeCall({ sampleId: 'q-alpha' })], makeResult({ sampleId: 'q-alpha' })), false);
        assert.equal((await store.results(run.id)).find((r) => r.sampleId === 'q-alpha')?.status, 'error');
        assert.deepEqual(await store.calls(run.id, 'q-alpha'), []);
        // Another model's result for the same sample is another unit.
        assert.equal((await store.unitStartState(run.id, 'q-beta', 'baseline:lexical')).result, undefined);
        assert.equal(await store.saveOutcome([], makeResult({ sampleId: 'q-beta', modelId: 'baseline:lexical' })), true);
        assert.equal((await store.unitStartState(run.id, 'q-beta', 'baseline:lexical')).result, 'done');
        assert.equal((await store.unitStartState(run.id, 'q-alpha', 'openai:gpt-4o-mini')).result, 'error');
        assert.equal((await store.unitStartState(run.id, 'q-gamma', 'openai:gpt-4o-mini')).result, undefined);
      }));

      test('repeats: a run records its repeats; (run, sample, model, repeat) is the unit — each repeat its own result, status, finished set and scores; results in sample, model, repeat order; repeat 0 reads without the field', withStores(async (store, reopen) => {
        const run = makeRun({ repeats: 3 });
        await store.createRun(run, samples);
        assert.equal((await (await reopen()).getRun(run.id))?.repeats, 3);
        assert.equal((await store.getRun(run.id))?.repeats, 3);
        const model = 'openai:gpt-4o-mini';
        // Saved out of order: repeat 2 first, then 0 and 1; q-alpha's repeat 1 an error.
        assert.equal(await store.saveOutcome([makeCall({ repeat: 2, startedAt: '2026-03-01T12:00:03.000Z' })], makeResult({ repeat: 2, score: { value: false } })), true);
        assert.equal(await store.saveOutcome([makeCall()], makeResult()), true);
        assert.equal(await store.saveOutcome([], makeResult({ repeat: 1 })), true);
        assert.equal(await store.saveOutcome([], errorResult('q-alpha', { repeat: 1 })), true);
        // Each repeat is once, as a unit without repeats is.
        assert.equal(await store.saveOutcome([], makeResult({ repeat: 1, score: { value: false } })), false);
        assert.equal((await store.unitStartState(run.id, 'q-beta', model)).result, 'done');
        assert.equal((await store.unitStartState(run.id, 'q-beta', model, 2)).result, 'done');
        assert.equal((await store.unitStartState(run.id, 'q-alpha', model, 1)).result, 'error');
        assert.equal((await store.unitStartState(run.id, 'q-alpha', model, 0)).result, undefined);
        assert.deepEqual(await store.finishedSampleIds(run.id, model), new Set(['q-beta']));
        assert.deepEqual(await store.finishedSampleIds(run.id, model, { repeat: 1 }), new Set(['q-beta', 'q-alpha']));
        assert.deepEqual(await store.finishedSampleIds(run.id, model, { repeat: 1, includeErrors: false }), new Set(['q-beta']));
        assert.deepEqual(await store.finishedSampleIds(run.id, model, { repeat: 3 }), new Set());
        const order = (rows: readonly { sampleId: string; repeat?: number }[]) => rows.map((r) => `${r.sampleId}#${r.repeat ?? 'absent'}`);
        assert.deepEqual(order(await store.results(run.id)), ['q-beta#absent', 'q-beta#1', 'q-beta#2', 'q-alpha#1']);
        assert.deepEqual(order(await (await reopen()).results(run.id, model, { outputs: false })), ['q-beta#absent', 'q-beta#1', 'q-beta#2', 'q-alpha#1']);
        assert.deepEqual(order(await store.resultsOf(run.id, ['q-alpha'])), ['q-alpha#1']);
        assert.deepEqual(order((await store.runSlice(run.id, 0, 1)).results), ['q-beta#absent', 'q-beta#1', 'q-beta#2']);
        assert.deepEqual(await store.resultCounts(run.id), [{ model, done: 3, errors: 1 }]);
        // A re-score names the repeat: only that repeat's score changes.
        await store.updateScores(run.id, model, new Map([['q-beta', { value: true, explanation: 'rescored' }]]), 2);
        const scores = (await store.results(run.id)).map((r) => r.score?.explanation ?? null);
        assert.deepEqual(scores, [makeResult().score?.explanation, makeResult().score?.explanation, 'rescored', null]);
        await assert.rejects(store.updateScores(run.id, model, new Map([['q-alpha', { value: true }]]), 1), /no done result for sample "q-alpha"/);
        // A run without repeats records none.
        await store.createRun(makeRun({ id: 'plain-run' }), samples);
        assert.equal('repeats' in ((await store.getRun('plain-run')) ?? {}), false);
      }));

      test("calls record their repeat: every role's calls of a repeat read back with it (calls, callsOf, runSlice, another connection), repeat 0 without the field; a call of one repeat is refused with another's result", withStores(async (store, reopen) => {
        const run = makeRun({ repeats: 3 });
        await store.createRun(run, samples);
        const judged = (repeat: number | undefined, at: string): CallRecord[] => {
          const extra = repeat === undefined ? {} : { repeat };
          return [
            makeCall({ ...extra, startedAt: at, request: { settings: { temperature: 0, seed: 42 + (repeat ?? 0) } }, messagesFromSample: true }),
            makeCall({ ...extra, startedAt: at, role: 'judge', actor: 'openai:judge', step: 'verdict', cacheKey: `judge-${repeat ?? 0}` }),
          ];
        };
        const first = judged(undefined, '2026-03-01T12:00:01.000Z');
        const third = judged(2, '2026-03-01T12:00:03.000Z');
        // A simulated user's call of repeat 1, cut short (no result yet), and the repeat-2 answer with its judge's call.
        const user = makeCall({ repeat: 1, role: 'user', actor: 'openai:user', step: 'turn 1/user', cacheKey: null, startedAt: '2026-03-01T12:00:02.000Z' });
        assert.equal(await store.saveOutcome(first, makeResult()), true);
        await store.saveCalls([user]);
        assert.equal(await store.saveOutcome(third, makeResult({ repeat: 2 })), true);
        // A repeat-0 call reads back exactly as a run without repeats stores it: no `repeat` field.
        const withInput = (call: CallRecord): CallRecord => {
          const { messagesFromSample, ...rest } = call;
          return messagesFromSample ? { ...rest, request: { ...(call.request as object), messages: samples[0]?.input } } : rest;
        };
        const expected = [...first, user, ...third].map(withInput);
        assert.deepEqual(await store.calls(run.id), expected);
        assert.deepEqual(await (await reopen()).calls(run.id, 'q-beta'), expected);
        assert.deepEqual(await store.callsOf(run.id, ['q-beta']), expected);
        assert.deepEqual((await store.runSlice(run.id, 0, 1)).calls, expected);
        assert.deepEqual((await store.calls(run.id)).map((c) => ('repeat' in c ? c.repeat : 'absent')), ['absent', 'absent', 1, 2, 2]);
        // Every role's calls still count once in the run's spend, whatever their repeat.
        assert.deepEqual((await store.runSpend(run.id)).map((r) => [r.role, r.calls]), [['test', 2], ['user', 1], ['judge', 2]]);
        // A call stored with another repeat's result would tell of the wrong answer.
        await assert.rejects(store.saveOutcome([makeCall({ repeat: 1 })], makeResult({ repeat: 2 })), /repeat 1 .* does not belong to result of repeat 2/);
        await assert.rejects(store.saveOutcome([makeCall()], makeResult({ repeat: 1 })), /repeat 0 .* does not belong to result of repeat 1/);
        assert.equal((await store.unitStartState(run.id, 'q-beta', 'openai:gpt-4o-mini', 1)).result, undefined);
      }));

      test('unitStartState: the unit’s result status, its run’s status and events as stored now and its sample as samplesOf reads it, in one read, also after another connection’s writes; no run: none of them', withStores(async (store, reopen) => {
        const model = 'openai:gpt-4o-mini';
        assert.deepEqual(await store.unitStartState(RUN_ID, 'q-beta', model), { result: undefined, run: undefined });
        const run = makeRun({ events: [{ type: 'submitted', at: '2026-03-01T12:00:00.000Z', queue: 'units' }] });
        await store.createRun(run, samples);
        // What a worker reads of the run is what getRun reads of it: the same status and events.
        const asRead = async (): Promise<Pick<RunRecord, 'status' | 'events'> | undefined> => {
          const stored = await store.getRun(run.id);
          return stored && { status: stored.status, events: stored.events };
        };
        const [beta] = await store.samplesOf(run.id, ['q-beta']);
        assert.ok(beta);
        assert.deepEqual(await store.unitStartState(run.id, 'q-beta', model), { result: undefined, run: { status: 'running', events: run.events }, sample: beta });
        const [alpha] = await store.samplesOf(run.id, ['q-alpha']);
        assert.deepEqual((await store.unitStartState(run.id, 'q-alpha', model, 2)).sample, alpha);
        // Another worker stops the model: the run is interrupted with the stop, at once for this one.
        const other = await reopen();
        const auth: FailFastStop = { actor: model, role: 'test', kind: 'auth', message: 'HTTP 401', count: 1 };
        await other.setRunStatus(run.id, 'interrupted', { type: 'failFast', stops: [auth] });
        const stopped = await store.unitStartState(run.id, 'q-beta', model);
        assert.deepEqual(stopped.run, await asRead());
        assert.equal(stopped.run?.status, 'interrupted');
        assert.deepEqual(stopsInEvents(stopped.run?.events ?? []), [auth]);
        // A resume queues the run again under a session of its own.
        await other.continueRun(run.id, run.engine, { queue: 'units', session: 's1' });
        const resumed = await store.unitStartState(run.id, 'q-beta', model);
        assert.deepEqual(resumed.run, await asRead());
        assert.deepEqual([resumed.run?.status, resumed.run && queueOf(resumed.run)], ['running', { name: 'units', session: 's1' }]);
        // The unit's result, per unit (sample, model, repeat); a sample the run does not have has none.
        await other.saveOutcome([makeCall()], makeResult());
        await other.saveOutcome([], errorResult('q-alpha', { repeat: 1 }));
        const results = await Promise.all([['q-beta', model, 0], ['q-beta', model, 1], ['q-beta', 'baseline:lexical', 0], ['q-alpha', model, 1], ['no-such-sample', model, 0]].map(
          async ([sampleId, modelId, repeat]) => (await store.unitStartState(run.id, sampleId as string, modelId as string, repeat as number)).result,
        ));
        assert.deepEqual(results, ['done', undefined, undefined, 'error', undefined]);
        const unknown = await store.unitStartState(run.id, 'no-such-sample', model);
        assert.deepEqual(unknown.run, await asRead());
        assert.equal(unknown.sample, undefined);
        assert.deepEqual((await store.unitStartState(run.id, 'q-beta', model)).sample, beta);
      }));

      test('saves of one unit racing from two connections: exactly one is written', withStores(async (store, reopen) => {
        await store.createRun(makeRun(), samples);
        const other = await reopen();
        const racers = Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? store : other).saveOutcome([makeCall({ attempt: i + 1 })], makeResult({ attempts: i + 1 })));
        const saved = await Promise.all(racers);
        assert.equal(saved.filter(Boolean).length, 1);
        const winner = saved.indexOf(true) + 1;
        assert.deepEqual((await store.calls(RUN_ID, 'q-beta')).map((c) => c.attempt), [winner]);
        assert.equal((await store.results(RUN_ID))[0]?.attempts, winner);
      }));

      test('a sample with very many calls (a long conversation) keeps them all, in order', withStores(async (store) => {
        await store.createRun(makeRun(), samples);
        const many = (n: number, step: string): CallRecord[] => Array.from({ length: n }, (_, i) => makeCall({ attempt: i + 1, step: `${step} ${i}`, cacheKey: null }));
        await store.saveCalls(many(1200, 'cut'));
        await store.saveOutcome(many(1500, 'turn'), makeResult({ attempts: 1500 }));
        const steps = (await store.calls(RUN_ID, 'q-beta')).map((c) => c.step);
        assert.equal(steps.length, 2700);
        assert.deepEqual([steps[0], steps[1199], steps[1200], steps[2699]], ['cut 0', 'cut 1199', 'turn 0', 'turn 1499']);
        assert.equal((await store.results(RUN_ID))[0]?.attempts, 1500);
      }));

      test('outcomes saved at once (a run’s concurrent samples) are all stored', withStores(async (store) => {
        const many: Sample[] = Array.from({ length: 200 }, (_, i) => ({ id: `s${i}`, input: [user(`q${i}`)], target: null, metadata: {} }));
        await store.createRun(makeRun(), many);
        await Promise.all(many.map((s, i) => store.saveOutcome([makeCall({ sampleId: s.id, cacheKey: `key-${i}` })], makeResult({ sampleId: s.id }))));
        assert.equal((await store.results(RUN_ID, undefined, { outputs: false })).length, 200);
        assert.equal((await store.finishedSampleIds(RUN_ID, 'openai:gpt-4o-mini')).size, 200);
      }));

      test('gathered saves (gather) are written as any other, once per unit, beside saves that are not', withStores(async (store) => {
        const many: Sample[] = Array.from({ length: 40 }, (_, i) => ({ id: `s${i}`, input: [user(`q${i}`)], target: null, metadata: {} }));
        await store.createRun(makeRun(), many);
        const save = (i: number, gather: boolean) => store.saveOutcome([makeCall({ sampleId: `s${i}`, cacheKey: `key-${i}` })], makeResult({ sampleId: `s${i}` }), { gather });
        // Every third save not gathered: it is written at the next turn, with those gathered before it.
        const first = await Promise.all(many.map((_, i) => save(i, i % 3 !== 0)));
        assert.deepEqual(first, many.map(() => true));
        // A gathered save of a unit that has its result is refused as any other.
        assert.deepEqual(await Promise.all([save(0, true), save(1, true)]), [false, false]);
        // One alone, gathered right after a commit: resolved once written (no other save comes to flush it).
        await store.createRun(makeRun({ id: 'run-b' }), samples);
        assert.equal(await store.saveOutcome([makeCall({ runId: 'run-b' })], makeResult({ runId: 'run-b' }), { gather: true }), true);
        assert.equal((await store.results(RUN_ID, undefined, { outputs: false })).length, 40);
        assert.equal((await store.calls(RUN_ID)).length, 40);
        assert.equal((await store.results('run-b')).length, 1);
      }));
    });

    describe('integrity', () => {
      test('saveOutcome is all or nothing: an invalid result rolls back its calls', withStores(async (store) => {
        const run = makeRun();
        await store.createRun(run, samples);
        // A "done" result without output breaks the records contract (and the table's CHECK).
        await assert.rejects(store.saveOutcome([makeCall()], makeResult({ output: null })), /check constraint/i);
        assert.deepEqual(await store.calls(run.id), []);
        assert.deepEqual(await store.results(run.id), []);
        // A bad outcome saved beside good ones sinks only itself.
        const [good, bad] = await Promise.allSettled([
          store.saveOutcome([makeCall({ sampleId: 'q-alpha' })], makeResult({ sampleId: 'q-alpha' })),
          store.saveOutcome([makeCall({ sampleId: 'q-gamma' })], makeResult({ sampleId: 'q-gamma', output: null })),
        ]);
        assert.equal(good.status, 'fulfilled');
        assert.ok(bad.status === 'rejected' && /check constraint/i.test(String(bad.reason)), String(bad.status === 'rejected' && bad.reason));
        assert.deepEqual((await store.calls(run.id)).map((c) => c.sampleId), ['q-alpha']);
      }));

      test('a result for a sample the run does not have is refused', withStores(async (store) => {
        await store.createRun(makeRun(), samples);
        await assert.rejects(store.saveOutcome([], makeResult({ sampleId: 'not-a-sample' })), /foreign key constraint/i);
        await assert.rejects(store.saveOutcome([makeCall({ sampleId: 'q-alpha' })], makeResult({ sampleId: 'q-beta' })), /does not belong/);
      }));
    });

    describe('call cache', () => {
      test('lookupCache returns the most recent successful output for the key, from any run, never an error', withStores(async (store) => {
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
        // A retry of the errored sample (--retry-errors) replaces its error result.
        await store.saveOutcome([inRun('run-a', { output: first })], makeResult({ runId: 'run-a', output: first }), { replaceError: true });
        assert.deepEqual(await store.lookupCache(key), first);
        await store.saveOutcome([inRun('run-b', { output: second })], makeResult({ runId: 'run-b', output: second }));
        await store.saveOutcome([inRun('run-b', { sampleId: 'q-alpha', ...failure })], errorResult('q-alpha', { runId: 'run-b' }));
        // The later error does not hide the latest success; `rawResponse: undefined` reads back as absent.
        const { rawResponse: _dropped, ...secondAsStored } = second;
        assert.deepEqual(await store.lookupCache(key), secondAsStored);
        assert.equal(await store.lookupCache('d'.repeat(64)), undefined);
      }));

      test('calls saved without a result (cut-short work) answer the cache too', withStores(async (store) => {
        await store.createRun(makeRun(), samples);
        await store.saveCalls([makeCall({ cacheKey: 'cut-short', output: { ...okOutput, text: 'paid for' } })]);
        assert.equal((await store.lookupCache('cut-short'))?.text, 'paid for');
        assert.deepEqual(await store.results(RUN_ID), []);
      }));

      test('another connection finds a cached call once the writer has closed', withStores(async (writer, reopen) => {
        await writer.createRun(makeRun(), samples);
        const reader = await reopen();
        await writer.saveOutcome([makeCall({ cacheKey: 'k1' })], makeResult());
        assert.deepEqual(await writer.lookupCache('k1'), okOutput); // its own call
        await writer.close();
        assert.deepEqual(await reader.lookupCache('k1'), okOutput);
      }));
    });

    describe('getRun by prefix', () => {
      test('exact id, unique prefix, ambiguous prefix and no match', withStores(async (store) => {
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
        assert.equal(await store.getRun('_'), undefined);
        await assert.rejects(store.getRun(''), InputError);
      }));
    });

    describe('updateScores', () => {
      test('replaces the scores of done results; a sample without a done result rolls the batch back', withStores(async (store) => {
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
        await store.updateScores(run.id, model, new Map()); // nothing to do
      }));
    });

    test('two connections on one store (e.g. `assay show` during a run) see each other’s commits', withStores(async (writer, reopen) => {
      const reader = await reopen();
      const run = makeRun();
      await writer.createRun(run, samples);
      assert.deepEqual(await reader.getRun(run.id), run);
      await writer.saveOutcome([makeCall()], makeResult());
      await reader.saveOutcome([], errorResult('q-alpha')); // the second connection may write too
      assert.deepEqual((await writer.results(run.id)).map((r) => r.status), ['done', 'error']);
      assert.deepEqual((await reader.results(run.id)).map((r) => r.status), ['done', 'error']);
    }));

    test('close is safe to call twice', async () => {
      const { store } = await freshStore();
      await store.createRun(makeRun(), samples);
      await store.close();
      await store.close();
    });

    describe('run leases (the store’s clock; short times to live stand in for waiting)', () => {
      /** Two connections (as two processes would have) on one new store with a run in it. */
      function withTwo(body: (a: Store, b: Store) => Promise<void>): () => Promise<void> {
        return withStores(async (a, reopen) => {
          await a.createRun(makeRun({ models: ['baseline:lexical'] }), []);
          await body(a, await reopen());
        });
      }

      test('a live lease refuses a second holder, naming the first; the holder itself may acquire again', withTwo(async (a, b) => {
        const before = Date.now();
        const first = await a.acquireRunLease(RUN_ID, alice, 30_000);
        assert.ok(first.acquired && first.tookOverFrom === undefined);
        const { lease } = first;
        assert.deepEqual([lease.runId, lease.holder], [RUN_ID, alice]);
        assert.equal(lease.heartbeatAt, lease.acquiredAt);
        assert.equal(Date.parse(lease.expiresAt) - Date.parse(lease.acquiredAt), 30_000);
        // The store's clock (the database server's for PostgreSQL) is this machine's here.
        assert.ok(Math.abs(Date.parse(lease.acquiredAt) - before) < 10_000, lease.acquiredAt);

        const second = await b.acquireRunLease(RUN_ID, bob, 30_000);
        assert.ok(!second.acquired);
        assert.deepEqual(second.heldBy, lease);
        assert.equal((await b.runLease(RUN_ID))?.holder.id, alice.id, 'the refused attempt changed nothing');
        assert.equal((await b.runLease(RUN_ID))?.live, true);
        const again = await a.acquireRunLease(RUN_ID, alice, 30_000);
        assert.ok(again.acquired && again.lease.acquiredAt === lease.acquiredAt, 'acquiring again renews, keeping when it was taken');
      }));

      test('of two holders asking at once, exactly one gets the lease', withTwo(async (a, b) => {
        const claims = await Promise.all([a.acquireRunLease(RUN_ID, alice, 30_000), b.acquireRunLease(RUN_ID, bob, 30_000)]);
        assert.equal(claims.filter((c) => c.acquired).length, 1, JSON.stringify(claims));
      }));

      test('renewal keeps a lease live past its first expiry; once it lapses another holder takes it over and the old holder can neither renew nor release it', withTwo(async (a, b) => {
        const first = await a.acquireRunLease(RUN_ID, alice, 300);
        assert.ok(first.acquired);
        await sleep(100);
        assert.equal(await a.renewRunLease(RUN_ID, alice.id, 60_000), true);
        await sleep(400); // past the first expiry, long before the renewed one
        const renewed = await b.runLease(RUN_ID);
        assert.equal(renewed?.live, true);
        assert.ok(renewed && renewed.heartbeatAt > first.lease.heartbeatAt && renewed.acquiredAt === first.lease.acquiredAt, JSON.stringify(renewed));
        assert.equal((await b.acquireRunLease(RUN_ID, bob, 1000)).acquired, false);

        // A beat that asks for 1 ms lets the lease lapse at once: as if the holder had died.
        assert.equal(await a.renewRunLease(RUN_ID, alice.id, 1), true);
        await sleep(50);
        assert.equal((await b.runLease(RUN_ID))?.live, false);
        const claim = await b.acquireRunLease(RUN_ID, bob, 30_000);
        assert.ok(claim.acquired);
        assert.deepEqual(claim.tookOverFrom?.holder, alice);
        assert.ok(claim.lease.acquiredAt > first.lease.acquiredAt);

        assert.equal(await a.renewRunLease(RUN_ID, alice.id, 1000), false, 'the old holder learns it lost the run');
        const stop: FailFastStop = { actor: 'openai:m', role: 'test', kind: 'auth', message: 'HTTP 401', count: 1 };
        assert.equal(await a.releaseRunLease(RUN_ID, alice.id, { status: 'interrupted', failFastStops: [stop] }), false);
        assert.equal((await b.getRun(RUN_ID))?.status, 'running', 'the old holder did not overwrite the new holder\'s status');
        assert.deepEqual((await b.getRun(RUN_ID))?.events, [], 'nor record its end');
        assert.equal((await b.runLease(RUN_ID))?.holder.id, bob.id);
      }));

      test('release ends the lease and sets the final status in one go; the run is then free to acquire', withTwo(async (a, b) => {
        await a.acquireRunLease(RUN_ID, alice, 30_000);
        assert.equal(await a.releaseRunLease(RUN_ID, alice.id, { status: 'interrupted', failFastStops: [] }), true);
        assert.equal(await b.runLease(RUN_ID), undefined);
        assert.equal((await b.getRun(RUN_ID))?.status, 'interrupted');
        const claim = await b.acquireRunLease(RUN_ID, bob, 30_000);
        assert.ok(claim.acquired && claim.tookOverFrom === undefined, 'a released lease is not a takeover');
        assert.equal(await b.releaseRunLease(RUN_ID, bob.id), true);
        assert.equal((await a.getRun(RUN_ID))?.status, 'interrupted', 'no end given: the run stays as it was');
      }));

      test('release appends the session’s end with the models it stopped early, the rest of the record kept; the next session’s end replaces the stops', withTwo(async (a, b) => {
        const stop: FailFastStop = { actor: 'openai:m', role: 'test', kind: 'auth', message: 'HTTP 401 from POST /v1/chat/completions: "it\'s" \\ wrong', count: 1 };
        const id = '20260301-120000-cd34';
        await a.createRun(makeRun({ id, engine: { concurrency: 2 }, provenance: { ...CHECKSUMS_AND_VERSIONS, dataDir: '/data' } }), []);
        await a.acquireRunLease(id, alice, 30_000);
        assert.equal(await a.releaseRunLease(id, alice.id, { status: 'interrupted', failFastStops: [stop] }), true);
        const ended = await b.getRun(id);
        assert.ok(ended);
        assert.deepEqual(ended.events.map(({ at: _at, ...e }) => e), [{ type: 'ended', status: 'interrupted', failFastStops: [stop] }], 'read back exactly, from another connection');
        assert.deepEqual([ended.engine, ended.provenance, ended.status], [{ concurrency: 2 }, { ...CHECKSUMS_AND_VERSIONS, dataDir: '/data' }, 'interrupted']);
        assert.deepEqual(engineView(ended), { concurrency: 2, dataDir: '/data', failFastStops: [stop] }, 'shown as runs showed it before the split');
        await b.acquireRunLease(id, bob, 30_000);
        assert.equal(await b.releaseRunLease(id, bob.id, { status: 'finished', failFastStops: [] }), true);
        const again = await a.getRun(id);
        assert.ok(again);
        assert.deepEqual(stopsInEvents(again.events), [], 'a session that stopped nothing clears them');
        assert.deepEqual(again.events.map((e) => e.type === 'ended' && e.status), ['interrupted', 'finished'], 'the first end kept: appended, never rewritten');
      }));

      test('a lease on a run that does not exist is refused; a bad time to live is a programming error', withTwo(async (a) => {
        await assert.rejects(a.acquireRunLease('no-such-run', alice, 1000), /no run no-such-run/);
        await assert.rejects(a.acquireRunLease(RUN_ID, alice, 0), /positive whole number/);
        await assert.rejects(a.renewRunLease(RUN_ID, alice.id, 1.5), /positive whole number/);
      }));
    });
  });
}
