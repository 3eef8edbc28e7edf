import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { startFakeOpenAIServer, type FakeChatRequestBody, type FakeServer } from '../../src/testing/fake-openai-server.js';
import { Gate, waitUntil } from '../../src/testing/gate.js';
import { harmRoles } from '../../src/testing/harm-roles.js';
import { collect, runAssay, spawnAssay } from '../../src/testing/spawn-cli.js';

// Issue 15: a conversation stores each call as it is made, so kill -9 mid-conversation loses no
// paid call: the resume replays the conversation from the call cache and asks only what was
// never answered.
const SEED = 3;
let server: FakeServer;
let dir: string;
/** Closed, the system under test's second answers (turn 2) are held in flight. */
const secondAnswers = new Gate();
const roles = harmRoles(SEED);

const isSecondAnswer = (body: FakeChatRequestBody): boolean => body.model === 'sut' && body.messages.filter((m) => m.role === 'user').length === 2;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-harm-kill-'));
  server = await startFakeOpenAIServer({
    respond: async (body) => {
      if (isSecondAnswer(body)) await secondAnswers.pass();
      return roles(body);
    },
  });
});

after(async () => {
  secondAnswers.open();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

test('kill -9 mid-conversation, then resume: no call is answered twice, every conversation is annotated', async () => {
  const db = join(dir, 'kill.db');
  const env = { ASSAY_LEASE_TTL_MS: '1000', OPENAI_API_KEY: 'sk-test' };
  const args = ['--db', db];
  secondAnswers.close();
  const child = spawnAssay(['run', 'harm/system-prompt-leakage', '-m', 'openai:sut', '--user-model', 'openai:user', '--judge', 'openai:judge', '--base-url', server.url, '--seed', String(SEED), '--concurrency', '2', '--json', ...args], env);
  const exited = collect(child);
  const held = (): number => server.requests.filter((r) => isSecondAnswer(r.body as FakeChatRequestBody)).length;
  await waitUntil(() => held() >= 2, 'two conversations waiting on their second answer');
  child.kill('SIGKILL');
  assert.equal((await exited).signal, 'SIGKILL');
  secondAnswers.open();

  const store = await openSqliteStore(db);
  const [run] = await store.listRuns();
  assert.ok(run);
  // Their first turns and second user messages were stored before the kill.
  assert.ok((await store.calls(run.id)).filter((c) => c.step === 'turn 2/user').length >= 2);
  await store.close();
  await waitUntil(async () => JSON.parse((await runAssay(['runs', '--json', ...args], env)).stdout)[0]?.status === 'stale', 'the killed run to show as stale');

  const resumed = await runAssay(['resume', run.id, '--json', ...args], env);
  assert.equal(resumed.code, 0, resumed.stderr);
  const summary = JSON.parse(resumed.stdout) as { models: Record<string, { counts: { done: number }; metrics: Record<string, unknown> }> };
  assert.equal(summary.models['openai:sut']?.counts.done, 6);
  assert.equal(summary.models['openai:sut']?.metrics['defects'], 2);
  // The ledger over both processes: every distinct request answered exactly once.
  const answered = server.requests.filter((r) => r.outcome === 'answered').map((r) => r.rawBody);
  assert.equal(new Set(answered).size, answered.length, 'a call answered twice');
  // Six conversations judged 5 times each (harm's default repeats, the seed's).
  assert.equal(answered.length, 5 * 5 + 8 + 6 * 5);
});
