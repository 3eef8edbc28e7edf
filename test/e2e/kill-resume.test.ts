import { createHash } from 'node:crypto';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { startFakeOpenAIServer, type FakeServer } from '../../src/testing/fake-openai-server.js';
import { answerMetaToolPrompt } from '../../src/testing/metatool-answerer.js';
import { collect, runAssay, spawnAssay } from '../../src/testing/spawn-cli.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';

/** Without the benchmark data these tests are skipped, saying how to get it. */
const skip = needsData('metatool');

const dataDir = testDataDir();
// More than the first chunk of samples stored with the run (256), so the kill lands before the
// last ones are stored and resume has to store them too.
const SAMPLES = 600;

let server: FakeServer;
let dir: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-kill-'));
  server = await startFakeOpenAIServer({ respond: (_b, ctx) => ({ text: answerMetaToolPrompt(ctx.key) }), latencyMs: 10 });
});

after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const runArgs = (db: string): string[] => [
  'run', 'metatool/similar', '--model', 'openai:fake-model', '--base-url', server.url,
  '--per-tool', '4', '--limit', String(SAMPLES), '--seed', '5', '--concurrency', '4', '--no-cache', '--json', '--db', db,
];
const env = { ASSAY_DATA_DIR: dataDir };

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function waitForAsync(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('kill -9 mid-run, then resume: no finished sample is called again and the metrics equal an uninterrupted run', { skip }, async () => {
  const db = join(dir, 'killed.db');
  // A short lease, so the killed process's lease expires soon and the resume may take the run over.
  const child = spawnAssay(runArgs(db), { ...env, ASSAY_LEASE_TTL_MS: '1000' });
  const exited = collect(child);
  await waitFor(() => server.requestCount >= 80, 60_000);
  child.kill('SIGKILL');
  const killed = await exited;
  assert.equal(killed.signal, 'SIGKILL');
  const requestsBeforeResume = server.requests.length;

  // What the killed process had finished is all on disk.
  const store = await openSqliteStore(db);
  const [run] = await store.listRuns();
  assert.ok(run, 'the run was recorded before the first call');
  assert.equal(run.status, 'running');
  const finishedBefore = new Set((await store.results(run.id)).filter((r) => r.status === 'done').map((r) => r.sampleId));
  assert.ok(finishedBefore.size >= 40 && finishedBefore.size < SAMPLES, `finished before kill: ${finishedBefore.size}`);
  const storedBefore = await store.loadSamples(run.id);
  assert.ok(storedBefore.length < SAMPLES, `samples stored before kill: ${storedBefore.length}`);
  assert.equal(run.sampleCount, SAMPLES);
  const promptOf = new Map(storedBefore.map((s) => [s.id, s.input[0]?.content ?? '']));
  await waitForAsync(async () => (await store.runLease(run.id))?.live === false, 60_000);
  await store.close();

  const resumed = await runAssay(['resume', run.id.slice(0, 15), '--json', '--db', db], env);
  assert.equal(resumed.code, 0, resumed.stderr);
  const summary = JSON.parse(resumed.stdout) as { status: string; models: Record<string, { metrics: unknown; counts: { done: number; errors: number } }> };
  assert.equal(summary.status, 'finished');
  assert.equal(summary.models['openai:fake-model']?.counts.done, SAMPLES);

  // The resumed process asked only for the samples that had not finished (with --no-cache, so the
  // call cache cannot hide a repeated call): none of the finished ones, each unfinished one once.
  const afterKeys = server.requests.slice(requestsBeforeResume).map((r) => r.key);
  const finishedKeys = new Set([...finishedBefore].map((id) => promptOf.get(id)));
  assert.equal(afterKeys.filter((k) => finishedKeys.has(k)).length, 0);
  assert.equal(afterKeys.length, SAMPLES - finishedBefore.size);
  assert.equal(new Set(afterKeys).size, afterKeys.length);

  const fresh = await runAssay(runArgs(join(dir, 'uninterrupted.db')), env);
  assert.equal(fresh.code, 0, fresh.stderr);
  const uninterrupted = JSON.parse(fresh.stdout) as typeof summary;
  assert.deepEqual(summary.models['openai:fake-model']?.metrics, uninterrupted.models['openai:fake-model']?.metrics);
});

test('run --resume --retry-errors calls again only the samples that ended in error', { skip }, async () => {
  const db = join(dir, 'retry.db');
  const failing = (key: string): boolean => answerMetaToolPrompt(key).startsWith('None');
  // A 400 about the sample itself names it, as a real one names the prompt's length or tool: the
  // same message for every sample would be the request's shape refused, which stops the model.
  const refusal = (key: string): string => JSON.stringify({ error: { message: `prompt ${createHash('sha256').update(key).digest('hex').slice(0, 12)} is refused`, type: 'invalid_request_error' } });
  server.setBehavior({ faults: (ctx) => (failing(ctx.key) ? { type: 'status', status: 400, body: refusal(ctx.key) } : undefined) });
  const args = ['run', 'metatool/reliability', '--model', 'openai:fake-model', '--base-url', server.url, '--per-tool', '1', '--limit', '40', '--seed', '2', '--json', '--db', db];
  const first = await runAssay(args, env);
  assert.equal(first.code, 3, 'finished with sample errors');
  const errors = (JSON.parse(first.stdout) as { models: Record<string, { counts: { errors: number; done: number } }> }).models['openai:fake-model']?.counts;
  assert.ok(errors && errors.errors > 0 && errors.done + errors.errors === 40, JSON.stringify(errors));

  server.setBehavior({ faults: undefined });
  const before = server.requests.length;
  const second = await runAssay([...args, '--resume', '--retry-errors'], env);
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stderr, /resuming run/);
  const counts = (JSON.parse(second.stdout) as { models: Record<string, { counts: { errors: number; done: number } }> }).models['openai:fake-model']?.counts;
  assert.deepEqual([counts?.done, counts?.errors], [40, 0]);
  const retried = server.requests.slice(before).map((r) => r.key);
  assert.equal(retried.length, errors.errors);
  assert.ok(retried.every(failing), 'only the failed samples were asked again');
});
