import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { startFakeOpenAIServer, type FakeAnswer, type FakeChatRequestBody, type FakeServer } from '../../src/testing/fake-openai-server.js';
import { Gate, waitUntil } from '../../src/testing/gate.js';
import { collect, runAssay, spawnAssay } from '../../src/testing/spawn-cli.js';

// Issue 14: a sample whose grading takes several judge calls stores each call as it is made, so
// kill -9 in the middle of judging loses no paid call: the resume makes every call only once
// (the ones made before the kill come back from the call cache).
const ARTICLES = 8;
let server: FakeServer;
let dir: string;
/** Closed, the judge's verdict calls are held in flight (their claims calls already answered). */
const verdicts = new Gate();

const fenced = (prompt: string, label: string): string => new RegExp(`<<<${label} ([0-9a-f]+)>>>\\n([\\s\\S]*?)\\n<<<end ${label} \\1>>>`).exec(prompt)?.[2] ?? '';

async function answer(body: FakeChatRequestBody): Promise<FakeAnswer> {
  const prompt = String(body.messages[0]?.content ?? '');
  if (body.model === 'writer') return { text: `Summary: ${prompt.split('\n\n')[1]?.slice(0, 40) ?? ''}.` };
  const format = (body['response_format'] as { json_schema?: { name?: string } } | undefined)?.json_schema?.name;
  if (format === 'claims') return { text: JSON.stringify({ claims: [fenced(prompt, 'summary')] }) };
  if (format === 'verdicts') {
    await verdicts.pass();
    return { text: JSON.stringify({ verdicts: [{ verdict: 'yes', reason: 'stated' }] }) };
  }
  throw new Error(`unexpected judge call ${String(format)}`);
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-summaries-kill-'));
  mkdirSync(join(dir, 'articles'));
  for (let i = 0; i < ARTICLES; i++) writeFileSync(join(dir, 'articles', `${i}.txt`), `Article number ${i} says that event ${i * 7} happened on day ${i}.`);
  server = await startFakeOpenAIServer({ respond: answer, latencyMs: 2 });
});

after(async () => {
  verdicts.open();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

test('kill -9 while the judge grades, then resume: no call is answered twice, every summary is judged', async () => {
  const db = join(dir, 'kill.db');
  const env = { ASSAY_LEASE_TTL_MS: '1000' };
  const args = ['--db', db];
  verdicts.close();
  const child = spawnAssay(
    ['run', 'summaries/alignment', '--articles', join(dir, 'articles'), '-m', 'openai:writer', '--judge', 'openai:judge', '--base-url', server.url, '--coverage-questions', '0', '--concurrency', '3', '--json', ...args],
    env,
  );
  const exited = collect(child);
  // Three samples are in their verdict step: their summary and claims calls were answered.
  const heldVerdicts = (): number => server.requests.filter((r) => String((r.body as FakeChatRequestBody)['response_format'] ? JSON.stringify(r.body) : '').includes('"name":"verdicts"')).length;
  await waitUntil(() => heldVerdicts() >= 3, 'three verdict calls in flight');
  child.kill('SIGKILL');
  assert.equal((await exited).signal, 'SIGKILL');
  verdicts.open();

  const store = await openSqliteStore(db);
  const [run] = await store.listRuns();
  assert.ok(run);
  const storedBefore = await store.calls(run.id);
  await store.close();
  // The held samples' summary and claims calls were stored before the kill.
  assert.ok(storedBefore.filter((c) => c.step === 'claims').length >= 3, `claims stored: ${storedBefore.filter((c) => c.step === 'claims').length}`);
  await waitUntil(async () => JSON.parse((await runAssay(['runs', '--json', ...args], env)).stdout)[0]?.status === 'stale', 'the killed run to show as stale');

  const resumed = await runAssay(['resume', run.id, '--json', ...args], env);
  assert.equal(resumed.code, 0, resumed.stderr);
  const summary = JSON.parse(resumed.stdout) as { models: Record<string, { counts: { done: number }; metrics: Record<string, unknown> }> };
  assert.equal(summary.models['openai:writer']?.counts.done, ARTICLES);
  assert.equal(summary.models['openai:writer']?.metrics['alignment'], 1);
  // The ledger: every distinct request was answered exactly once over both processes.
  const answered = new Map<string, number>();
  for (const r of server.requests) if (r.outcome === 'answered') answered.set(r.key + JSON.stringify((r.body as FakeChatRequestBody).model), (answered.get(r.key + JSON.stringify((r.body as FakeChatRequestBody).model)) ?? 0) + 1);
  assert.deepEqual([...answered.values()].filter((n) => n > 1), [], 'no call answered twice');
  // 8 summaries, 8 claims, 8 verdicts answered in all.
  assert.equal([...answered.values()].length, ARTICLES * 3);
});
