import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startRun, summarizeStoredRun } from '../../src/runner/run.js';
import type { RunSpec } from '../../src/runner/run-spec.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { answerMetaToolPrompt, shownTools } from '../../src/testing/metatool-answerer.js';
import { faultPlan, plannedFault, startFakeOpenAIServer, type FakeServer } from '../../src/testing/fake-openai-server.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';

/** Without the benchmark data these tests are skipped, saying how to get it. */
const skip = needsData('metatool');

const dataDir = testDataDir();
const plan = { rate429: 0.15, rate500: 0.1, rateHang: 0.05, seed: 7, retryAfterMs: 30 };

/** A run of `perTool: 1` samples of `task` against the fake server at `url`, with test-sized timeouts. */
function fakeRun(task: string, url: string, seed: number, limit: number, engine: Partial<RunSpec['engine']> = {}): RunSpec {
  return {
    task,
    models: ['openai:fake-model'],
    seed,
    options: { perTool: 1, limit },
    dataDir,
    engine: { concurrency: 2, timeoutMs: 1000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: true, openaiBaseURL: url, ...engine },
  };
}

let server: FakeServer;
let dir: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-faults-'));
  server = await startFakeOpenAIServer({
    respond: (_body, ctx) => ({ text: answerMetaToolPrompt(ctx.key) }),
    latencyMs: (ctx) => 5 + (ctx.index % 7) * 3,
    faults: faultPlan(plan),
  });
});

after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

test('every sample ends scored through 429s with Retry-After, 500s and hung connections; no error text is stored as output', { skip }, async () => {
  const store = await openSqliteStore(join(dir, 'faults.db'));
  // The timeout only has to catch the hung connections: generous, so a 429 that arrives late on a busy machine is not taken for a hang.
  const spec = fakeRun('metatool/similar', server.url, 3, 120, { concurrency: 8, timeoutMs: 1500, retry: { maxRetries: 4, baseDelayMs: 10, maxDelayMs: 100 } });
  const summary = await startRun(spec, { store });
  const counts = summary.models['openai:fake-model']?.counts;
  assert.equal(counts?.done, 120);
  assert.equal(counts?.errors, 0);

  const samples = await store.loadSamples(summary.run);
  const results = await store.results(summary.run);
  assert.equal(results.length, 120);
  let expectedCorrect = 0;
  for (const sample of samples) {
    const prompt = sample.input[0]?.content ?? '';
    const result = results.find((r) => r.sampleId === sample.id);
    assert.equal(result?.status, 'done');
    // The stored output is exactly what the server's "model" said: never a 429/500 body or a timeout message.
    assert.equal(result?.output?.text, answerMetaToolPrompt(prompt));
    // Independent expectation: the answerer names one shown tool (or None); correct iff it is the gold.
    const answer = answerMetaToolPrompt(prompt);
    const named = shownTools(prompt).find((t) => answer === `I would use ${t} for this query.`);
    if (named === sample.target) expectedCorrect++;
    // Faulted samples have their failed attempt recorded as an error call, then a good one.
    const calls = await store.calls(summary.run, sample.id);
    // The stored request reads back as what was sent: the sample's messages and the settings.
    assert.deepEqual(calls[0]?.request, { messages: [{ role: 'user', content: prompt }], settings: { temperature: 0 } });
    const fault = plannedFault(plan, prompt);
    if (fault) {
      assert.equal(calls.length, 2, `${sample.id}: one faulted attempt then one answered`);
      assert.equal(calls[0]?.output, null);
      assert.equal(calls[0]?.error?.kind, fault.type === 'hang' ? 'timeout' : fault.type === 'status' && fault.status === 429 ? 'rate-limit' : 'server');
      assert.equal(calls[1]?.error, null);
    } else {
      assert.equal(calls.length, 1);
    }
  }
  const csr = summary.models['openai:fake-model']?.metrics['csr'];
  assert.equal(csr, expectedCorrect / 120);
  // The plan really did inject each kind of fault in this run.
  const outcomes = new Set(server.requests.map((r) => r.outcome));
  for (const kind of ['answered', 'status', 'hang']) assert.ok(outcomes.has(kind as never), `saw ${kind}`);
  assert.ok(server.requests.some((r) => r.status === 429) && server.requests.some((r) => r.status === 500));

  // Run again: every request is answered from the call cache, nothing reaches the server.
  const before = server.requestCount;
  const again = await startRun(spec, { store });
  assert.equal(server.requestCount, before);
  assert.equal(again.models['openai:fake-model']?.counts.cached, 120);
  assert.deepEqual(again.models['openai:fake-model']?.metrics, summary.models['openai:fake-model']?.metrics);
  assert.deepEqual(await summarizeStoredRun(store, again.run), again);
  await store.close();
});

test('a sample whose calls keep failing ends as an error, counted apart from the scores', { skip }, async () => {
  const store = await openSqliteStore(join(dir, 'errors.db'));
  const failing = await startFakeOpenAIServer({ respond: (_b, ctx) => ({ text: answerMetaToolPrompt(ctx.key) }), faults: (ctx) => (ctx.index % 3 === 0 ? { type: 'status', status: 503 } : undefined) });
  try {
    const summary = await startRun(fakeRun('metatool/reliability', failing.url, 1, 30, { concurrency: 1, cache: false }), { store });
    const counts = summary.models['openai:fake-model']?.counts;
    // With one worker and no retries, every third request (0, 3, 6, …) fails: 10 of 30.
    assert.equal(counts?.errors, 10);
    assert.equal(counts?.done, 20);
    assert.deepEqual(counts?.errors_by_kind, { server: 10 });
    const errored = (await store.results(summary.run)).filter((r) => r.status === 'error');
    assert.ok(errored.every((r) => r.output === null && r.score === null && r.error?.kind === 'server'));
    // A fresh run summarizes from what it saved instead of reading it back: the same as the store's summary.
    assert.deepEqual(await summarizeStoredRun(store, summary.run), summary);
  } finally {
    await failing.close();
    await store.close();
  }
});

test('the API key is sent to the server and never reaches the store', { skip }, async () => {
  const key = 'sk-assay-test-0123456789abcdef';
  const server2 = await startFakeOpenAIServer({ respond: (_b, ctx) => ({ text: answerMetaToolPrompt(ctx.key) }) });
  const dbDir = mkdtempSync(join(tmpdir(), 'assay-key-'));
  const store = await openSqliteStore(join(dbDir, 'key.db'));
  try {
    await startRun(fakeRun('metatool/reliability', server2.url, 2, 5), { store, secrets: { openaiApiKey: key } });
    assert.equal(server2.requests.length, 5);
    assert.ok(server2.requests.every((r) => r.hadCredential && r.credentialLength === key.length));
  } finally {
    await store.close();
    await server2.close();
  }
  for (const file of readdirSync(dbDir)) assert.ok(!readFileSync(join(dbDir, file)).includes(key), `${file} must not contain the key`);
  rmSync(dbDir, { recursive: true, force: true });
});
