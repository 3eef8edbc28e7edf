import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { FakeServer } from '../../src/testing/fake-openai-server.js';
import { type Gate, waitUntil } from '../../src/testing/gate.js';
import { startGatedMetaToolServer, type GatedMetaToolServer } from '../../src/testing/gated-metatool-server.js';
import { collect, runAssay, spawnAssay } from '../../src/testing/spawn-cli.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';

/** Without the benchmark data these tests are skipped, saying how to get it. */
const skip = needsData('metatool');

const SAMPLES = 200;
const CONCURRENCY = 4;
const MODEL = 'openai:fake-model';
const env = { ASSAY_DATA_DIR: testDataDir() };
const STOPPING = 'stopping: no new samples start; the calls in flight finish and are stored (Ctrl-C again aborts them)…';

let server: FakeServer;
let dir: string;
let gate: Gate;
let fixture: GatedMetaToolServer;

before(async () => {
  fixture = await startGatedMetaToolServer('assay-ctrl-c-');
  ({ server, gate, dir } = fixture);
});

after(() => fixture.close());

const runArgs = (db: string): string[] => [
  'run', 'metatool/similar', '--model', MODEL, '--base-url', server.url,
  '--per-tool', '4', '--limit', String(SAMPLES), '--seed', '13', '--concurrency', String(CONCURRENCY), '--no-cache', '--json', '--db', db,
];

/** Starts a run, lets it finish some samples, then holds the server's answers until every worker has a call in flight. */
async function runWithCallsInFlight(db: string): Promise<{ child: ReturnType<typeof spawnAssay>; stderr: () => string; exited: ReturnType<typeof collect> }> {
  gate.open();
  const from = server.requests.length;
  const child = spawnAssay(runArgs(db), env);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = collect(child);
  await waitUntil(() => server.requests.length >= from + 40, 'the run to get going');
  gate.close();
  const held = (): number => server.requests.slice(from).filter((r) => r.outcome === 'pending').length;
  await waitUntil(() => held() === CONCURRENCY, 'a call in flight on every worker');
  return { child, stderr: () => stderr, exited };
}

async function doneSamples(db: string): Promise<{ runId: string; done: number; prompts: Set<string> }> {
  const store = await openSqliteStore(db);
  try {
    const [run] = await store.listRuns();
    assert.ok(run);
    const samples = new Map((await store.loadSamples(run.id)).map((s) => [s.id, String(s.input[0]?.content ?? '')]));
    const done = (await store.results(run.id)).filter((r) => r.status === 'done');
    return { runId: run.id, done: done.length, prompts: new Set(done.map((r) => samples.get(r.sampleId) ?? '')) };
  } finally {
    await store.close();
  }
}

test('the first Ctrl-C lets the calls in flight finish and stores them; the resume does not call them again', { skip }, async (t) => {
  const db = join(dir, 'graceful.db');
  const from = server.requests.length;
  const { child, stderr, exited } = await runWithCallsInFlight(db);
  const inFlight = server.requests.slice(from).filter((r) => r.outcome === 'pending').map((r) => r.key);
  const asked = server.requests.length;
  child.kill('SIGINT');
  await waitUntil(() => stderr().includes(STOPPING), 'the stopping line');
  // Only now do the held calls get their answers: they were in flight during the stop.
  gate.open();
  const result = await exited;
  assert.equal(result.code, 130, result.stderr);
  assert.equal((JSON.parse(result.stdout) as { status: string }).status, 'interrupted');
  assert.equal(server.requests.length, asked, 'no sample started after the Ctrl-C');

  const before = server.requests.slice(from);
  assert.deepEqual(before.filter((r) => r.outcome !== 'answered').map((r) => r.outcome), [], 'no call was cut short');
  const stopped = await doneSamples(db);
  // Every call paid for is a stored result, the ones in flight at the Ctrl-C included.
  assert.equal(stopped.done, before.length);
  for (const key of inFlight) assert.ok(stopped.prompts.has(key), 'a call in flight at the Ctrl-C was stored');

  const resumeFrom = server.requests.length;
  const resumed = await runAssay(['resume', stopped.runId, '--json', '--db', db], env);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal((JSON.parse(resumed.stdout) as { models: Record<string, { counts: { done: number } }> }).models[MODEL]?.counts.done, SAMPLES);
  const again = server.requests.slice(resumeFrom).map((r) => r.key);
  assert.equal(again.filter((k) => stopped.prompts.has(k)).length, 0, 'the resume called none of the stored samples again');
  assert.equal(again.length, SAMPLES - stopped.done);
  t.diagnostic(`in flight at the Ctrl-C ${inFlight.length}; requests before the stop ${before.length}, results stored ${stopped.done}; requests by the resume ${again.length}`);
});

test('a second Ctrl-C aborts the calls in flight: the run is interrupted and resumable, and only those samples are asked again', { skip }, async () => {
  const db = join(dir, 'abort.db');
  const from = server.requests.length;
  const { child, stderr, exited } = await runWithCallsInFlight(db);
  child.kill('SIGINT');
  await waitUntil(() => stderr().includes(STOPPING), 'the stopping line');
  child.kill('SIGINT');
  const result = await exited;
  gate.open();
  assert.equal(result.code, 130, result.stderr);
  assert.match(result.stderr, /aborting the calls in flight \(Ctrl-C again quits at once\)/);
  assert.equal((JSON.parse(result.stdout) as { status: string }).status, 'interrupted');
  const stopped = await doneSamples(db);
  const asked = server.requests.length - from;
  // The aborted calls are not stored: they (and only they) are pending beside the never-started samples.
  assert.equal(stopped.done, asked - CONCURRENCY);

  const resumeFrom = server.requests.length;
  const resumed = await runAssay(['resume', stopped.runId, '--json', '--db', db], env);
  assert.equal(resumed.code, 0, resumed.stderr);
  const again = server.requests.slice(resumeFrom).map((r) => r.key);
  assert.equal(again.filter((k) => stopped.prompts.has(k)).length, 0);
  assert.equal(again.length, SAMPLES - stopped.done);
});
