import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { resumeRun, startRun } from '../../src/runner/run.js';
import type { RunSpec } from '../../src/runner/run-spec.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { startFakeOpenAIServer, type FakeServer } from '../../src/testing/fake-openai-server.js';
import { Gate, waitUntil } from '../../src/testing/gate.js';
import { answerSummariesRequest } from '../../src/testing/summaries-answerer.js';

/**
 * Issue 26, item 9: identical requests in flight share one call. A summaries run whose articles
 * repeat (two texts, each in two files) with concurrency 4: the loopback server holds its answers
 * until the distinct requests are in flight, so every duplicate is made while its twin is
 * unanswered (and not in the cache yet). Each distinct request body must reach the server once,
 * the writer's and the judge's; each sample still gets its result, the shared ones told as cache
 * hits that cost nothing.
 */
const ARTICLES: Record<string, string> = {
  'news/bridge.txt': 'The mayor opened the bridge on Monday. It cost four million dollars. Crowds watched.',
  'news/bridge-copy.txt': 'The mayor opened the bridge on Monday. It cost four million dollars. Crowds watched.',
  'sport/final.txt': 'The home team won the final. The weather was cold.',
  'sport/final-again.txt': 'The home team won the final. The weather was cold.',
};
const DISTINCT_ARTICLES = new Set(Object.values(ARTICLES)).size;

let server: FakeServer;
let dir: string;
const gate = new Gate();
/** Requests received per distinct body (model, messages, response format). */
const bodies = new Map<string, number>();

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-single-flight-'));
  for (const [id, text] of Object.entries(ARTICLES)) {
    mkdirSync(join(dir, 'articles', id.split('/')[0] as string), { recursive: true });
    writeFileSync(join(dir, 'articles', id), text);
  }
  server = await startFakeOpenAIServer({
    respond: async (body) => {
      const key = JSON.stringify([body.model, body.messages, body['response_format']]);
      bodies.set(key, (bodies.get(key) ?? 0) + 1);
      await gate.pass();
      return answerSummariesRequest(body);
    },
  });
});

after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const spec = (cache: boolean): RunSpec => ({
  task: 'summaries/alignment',
  models: ['openai:writer'],
  seed: 0,
  options: { task: { articles: join(dir, 'articles'), coverageQuestions: 2 } },
  dataDir: dir,
  engine: { concurrency: 4, timeoutMs: 30_000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache, openaiBaseURL: server.url },
  judge: { model: 'openai:judge', repeats: 1, format: 'json', maxParseRetries: 1, temperature: 0 },
});

const writerRequests = (): number => server.requests.filter((r) => (r.body as { model?: unknown }).model === 'writer').length;

test('identical requests in flight share one call: each distinct request reaches the server once, each sample keeps its result, cost counted once', async () => {
  const store = await openSqliteStore(join(dir, 'shared.db'));
  try {
    bodies.clear();
    gate.close();
    const running = startRun(spec(true), { store });
    // Hold the writer's answers until its distinct requests are in flight: the duplicates are asked meanwhile.
    await waitUntil(() => server.requests.filter((r) => r.outcome === 'pending').length >= DISTINCT_ARTICLES, 'the distinct requests in flight');
    await waitUntil(() => writerRequests() >= DISTINCT_ARTICLES, 'the writer requests');
    gate.open();
    const summary = await running;
    assert.equal(summary.models['openai:writer']?.counts.done, Object.keys(ARTICLES).length);
    const repeated = [...bodies.entries()].filter(([, n]) => n > 1);
    assert.deepEqual(repeated, [], 'no request body was sent twice');
    assert.equal(writerRequests(), DISTINCT_ARTICLES);

    const results = await store.results(summary.run, 'openai:writer');
    assert.equal(results.length, Object.keys(ARTICLES).length, 'each sample has its own result');
    // The twins of the calls made are told as cache hits: no attempt, no cost.
    assert.equal(results.filter((r) => r.cached).length, Object.keys(ARTICLES).length - DISTINCT_ARTICLES);
    for (const r of results.filter((x) => x.cached)) assert.deepEqual([r.attempts, r.costUsd], [0, 0]);
    const calls = (await store.calls(summary.run)).filter((c) => c.role === 'test');
    assert.equal(calls.length, DISTINCT_ARTICLES, 'one stored call per request paid for');
  } finally {
    gate.open();
    await store.close();
  }
});

test('--no-cache keeps every call its own: duplicates are asked again', async () => {
  const store = await openSqliteStore(join(dir, 'no-cache.db'));
  try {
    const from = writerRequests();
    const summary = await startRun(spec(false), { store });
    assert.equal(summary.models['openai:writer']?.counts.done, Object.keys(ARTICLES).length);
    assert.equal(writerRequests() - from, Object.keys(ARTICLES).length);
  } finally {
    await store.close();
  }
});

test('a resume shares identical calls in flight too', async () => {
  const store = await openSqliteStore(join(dir, 'resumed.db'));
  try {
    // A run stopped before its first sample: every sample is left for the resume.
    const stop = new AbortController();
    stop.abort();
    const stopped = await startRun(spec(true), { store, stop: stop.signal });
    assert.equal(stopped.status, 'interrupted');
    // Another store, so that the first test's calls do not answer from the cache: a fresh server key space.
    bodies.clear();
    gate.close();
    const from = writerRequests();
    const resumed = resumeRun(stopped.run, {}, { store });
    await waitUntil(() => writerRequests() - from >= DISTINCT_ARTICLES, 'the distinct requests in flight');
    gate.open();
    const summary = await resumed;
    assert.equal(summary.models['openai:writer']?.counts.done, Object.keys(ARTICLES).length);
    assert.equal(writerRequests() - from, DISTINCT_ARTICLES);
  } finally {
    gate.open();
    await store.close();
  }
});
