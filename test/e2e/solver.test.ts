import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { registerTask } from '../../src/benchmarks/registry.js';
import { estimateRun } from '../../src/runner/estimate.js';
import { exportRows } from '../../src/report/export.js';
import { resumeRun, startRun } from '../../src/runner/run.js';
import type { RunSpec } from '../../src/runner/run-spec.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { conversationTask } from '../../src/testing/conversation-task.js';
import { startFakeOpenAIServer, type FakeChatRequestBody } from '../../src/testing/fake-openai-server.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';

/** Without the benchmark data these tests are skipped, saying how to get it. */
const skip = needsData('metatool');

registerTask(conversationTask());

/**
 * The server plays both roles, told apart by the model asked for. The simulated user (`user`)
 * ends alice's conversation after two messages, never ends bob's (max turns, 3), and ends
 * carol's before saying anything (an error: an empty conversation). The model under test
 * (`sut`) answers "re: " and the last user message.
 */
function respond(body: FakeChatRequestBody): { text: string } {
  const messages = body.messages as readonly { role: string; content: string }[];
  if (body.model === 'sut') return { text: `re: ${messages[messages.length - 1]?.content ?? ''}` };
  const persona = /You are (\w+)\./.exec(messages[0]?.content ?? '')?.[1] ?? '?';
  const said = messages.filter((m) => m.role === 'assistant').length;
  const end = persona === 'carol' || (persona === 'alice' && said === 2);
  return { text: JSON.stringify({ message: `${persona} says ${said + 1}`, end }) };
}

function specFor(url: string, extra: Partial<RunSpec> = {}): RunSpec {
  return {
    task: 'testing/conversation',
    models: ['openai:sut'],
    userModel: 'openai:user',
    seed: 1,
    options: {},
    dataDir: testDataDir(),
    engine: { concurrency: 1, timeoutMs: 5000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: true, openaiBaseURL: url },
    ...extra,
  };
}

const secrets = { openaiApiKey: 'sk-test' };

test('a task with a solver: calls in the user and test roles alternate, each stored with its role and step, and the result keeps the transcript', async () => {
  const server = await startFakeOpenAIServer({ respond });
  const dir = mkdtempSync(join(tmpdir(), 'assay-solver-'));
  try {
    const store = await openSqliteStore(join(dir, 'a.db'));
    const summary = await startRun(specFor(server.url), { store, secrets });
    const run = await store.getRun(summary.run);
    assert.equal(run?.userModel, 'openai:user');
    const counts = summary.models['openai:sut']?.counts;
    assert.deepEqual([counts?.done, counts?.errors, counts?.errors_by_kind], [2, 1, { 'empty-conversation': 1 }]);
    // alice: 2 turns (she ends at the third user call); bob: cut at max turns (3).
    assert.deepEqual(summary.models['openai:sut']?.metrics, { conversations: 2, mean_turns: 2.5 });

    const results = new Map((await store.results(summary.run)).map((r) => [r.sampleId, r]));
    const alice = results.get('alice');
    assert.deepEqual(alice?.transcript?.map((s) => [s.role, s.step, s.model]), [
      ['user', 'turn 1/user', 'openai:user'],
      ['test', 'turn 1/test', 'openai:sut'],
      ['user', 'turn 2/user', 'openai:user'],
      ['test', 'turn 2/test', 'openai:sut'],
      ['user', 'turn 3/user', 'openai:user'],
    ]);
    assert.equal(alice?.output?.text, 're: alice says 2');
    assert.equal(alice?.score?.value, 2);
    assert.equal(results.get('bob')?.transcript?.length, 6);
    // The error keeps its transcript too: the one call that ended it.
    assert.deepEqual(results.get('carol')?.transcript?.map((s) => s.role), ['user']);
    assert.equal(results.get('carol')?.status, 'error');

    // The ledger: every call, in order, with its role, step and who answered.
    const calls = await store.calls(summary.run, 'alice');
    assert.deepEqual(calls.map((c) => [c.role, c.step, c.actor ?? c.modelId, c.attempt]), [
      ['user', 'turn 1/user', 'openai:user', 1],
      ['test', 'turn 1/test', 'openai:sut', 2],
      ['user', 'turn 2/user', 'openai:user', 3],
      ['test', 'turn 2/test', 'openai:sut', 4],
      ['user', 'turn 3/user', 'openai:user', 5],
    ]);
    // The second test call carries the whole conversation so far.
    const second = calls[3]?.request as { messages: { role: string; content: string }[] };
    assert.deepEqual(second.messages.map((m) => m.content), ['Be helpful.', 'alice says 1', 're: alice says 1', 'alice says 2']);
    // The result adds up every call of the sample, both roles.
    const tokens = calls.reduce((n, c) => n + (c.usage.inputTokens ?? 0), 0);
    assert.equal(alice?.usage.inputTokens, tokens);
    assert.equal(alice?.attempts, 5);
    // 5 + 6 + 1 calls, each answered once.
    assert.equal(server.requests.length, 12);
    // The export gives each sample's transcript, who said what.
    const rows = exportRows(run as NonNullable<typeof run>, await store.loadSamples(summary.run), await store.results(summary.run));
    assert.deepEqual((rows.find((r) => r.sample_id === 'alice')?.['transcript'] as { text: string }[]).map((s) => s.text), [
      '{"message":"alice says 1","end":false}',
      're: alice says 1',
      '{"message":"alice says 2","end":false}',
      're: alice says 2',
      '{"message":"alice says 3","end":true}',
    ]);
    await store.close();
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a solver's run with repeats: every call of a repeat, the simulated user's and the model's, is stored with that repeat (repeat 0's without the field)", async () => {
  const server = await startFakeOpenAIServer({ respond });
  const dir = mkdtempSync(join(tmpdir(), 'assay-solver-repeats-'));
  try {
    const store = await openSqliteStore(join(dir, 'a.db'));
    const summary = await startRun(specFor(server.url, { repeats: 2 }), { store, secrets });
    const calls = await store.calls(summary.run, 'alice');
    // alice's conversation is 5 calls (3 user, 2 test), once per repeat; the repeat's seed is in the test role's request.
    const byRepeat = (repeat: number) => calls.filter((c) => (c.repeat ?? 0) === repeat);
    assert.deepEqual([byRepeat(0).length, byRepeat(1).length, calls.length], [5, 5, 10]);
    for (const repeat of [0, 1]) {
      assert.deepEqual(byRepeat(repeat).map((c) => c.role), ['user', 'test', 'user', 'test', 'user']);
      for (const call of byRepeat(repeat).filter((c) => c.role === 'test')) assert.equal((call.request as { settings: { seed: number } }).settings.seed, 1 + repeat);
    }
    assert.equal(calls.filter((c) => 'repeat' in c && c.repeat === 0).length, 0, 'repeat 0 leaves the field out');
    await store.close();
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a solver stopped mid-conversation resumes from the cache: no request is answered twice', async () => {
  const controller = new AbortController();
  let arrived = 0;
  // The stop comes as the sixth request arrives, in bob's conversation (alice's five are done),
  // before the server answers it: the client has left by then, so it is never answered.
  const server = await startFakeOpenAIServer({
    respond,
    latencyMs: () => {
      if (++arrived !== 6) return 0;
      controller.abort();
      return 200;
    },
  });
  const dir = mkdtempSync(join(tmpdir(), 'assay-solver-'));
  try {
    const store = await openSqliteStore(join(dir, 'a.db'));
    const stopped = await startRun(specFor(server.url), { store, secrets, signal: controller.signal });
    assert.equal(stopped.status, 'interrupted');
    assert.equal(stopped.models['openai:sut']?.counts.done, 1);
    const resumed = await resumeRun(stopped.run, {}, { store, secrets });
    assert.equal(resumed.status, 'finished');
    assert.deepEqual(resumed.models['openai:sut']?.metrics, { conversations: 2, mean_turns: 2.5 });
    const answeredBodies = server.requests.filter((r) => r.outcome === 'answered').map((r) => r.rawBody);
    assert.equal(new Set(answeredBodies).size, answeredBodies.length, 'a request answered twice');
    // Bob's first call, cut off, is asked again; the others come from the cache.
    assert.equal(answeredBodies.length, 12);
    assert.equal(server.requests.length, 13);
    await store.close();
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--user-model is required by a task with a simulated user and refused by one without', { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'assay-solver-'));
  try {
    const store = await openSqliteStore(join(dir, 'a.db'));
    const { userModel: _userModel, ...without } = specFor('http://127.0.0.1:9/v1');
    await assert.rejects(startRun(without, { store, secrets }), /simulates a user .*give --user-model/);
    const metatool: RunSpec = { ...specFor('http://127.0.0.1:9/v1'), task: 'metatool/awareness', models: ['baseline:lexical'], options: { limit: 2 } };
    await assert.rejects(startRun(metatool, { store, secrets }), /has no simulated user; drop --user-model/);
    assert.equal((await store.listRuns()).length, 0, 'nothing recorded');
    // The estimate counts both roles at their bound: 3 conversations × 3 turns each.
    const estimate = await estimateRun(specFor('http://127.0.0.1:9/v1'));
    assert.deepEqual([estimate.models[0]?.calls, estimate.models[0]?.input_tokens, estimate.user], [9, null, { model: 'openai:user', calls_max: 9 }]);
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a simulated user whose key is refused stops the run at its first call (fail-fast): no call of the model under test', async () => {
  const server = await startFakeOpenAIServer({
    respond,
    faults: ({ body }) => (body.model === 'user' ? { type: 'status', status: 401, body: JSON.stringify({ error: { message: 'bad key', type: 'invalid_request_error', code: 'invalid_api_key' } }) } : undefined),
  });
  const dir = mkdtempSync(join(tmpdir(), 'assay-solver-'));
  try {
    const store = await openSqliteStore(join(dir, 'a.db'));
    const warnings: string[] = [];
    const summary = await startRun(specFor(server.url), { store, secrets, onWarning: (w) => warnings.push(w) });
    assert.equal(summary.status, 'interrupted');
    assert.equal(server.requests.length, 1);
    assert.match(warnings.join('\n'), /stopped the simulated user openai:user \(and with it the run\) after 1 auth error/);
    assert.equal(summary.models['openai:sut']?.counts.pending, 3, 'the sample that met the refusal is left for resume');
    await store.close();
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
