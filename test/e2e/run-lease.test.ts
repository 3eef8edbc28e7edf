import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { FakeServer } from '../../src/testing/fake-openai-server.js';
import { type Gate, waitUntil } from '../../src/testing/gate.js';
import { startGatedMetaToolServer, type GatedMetaToolServer } from '../../src/testing/gated-metatool-server.js';
import { collect, runAssay, spawnAssay, type CliResult } from '../../src/testing/spawn-cli.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';

/** Without the benchmark data these tests are skipped, saying how to get it. */
const skip = needsData('metatool');

// Issue 13: a run is owned by one process at a time. The scenario of the report: a 400-sample run
// killed part-way, then resumed by two processes at once.
const SAMPLES = 400;
const MODEL = 'openai:fake-model';
const env = { ASSAY_DATA_DIR: testDataDir() };

let server: FakeServer;
let dir: string;
let gate: Gate;
let fixture: GatedMetaToolServer;

before(async () => {
  fixture = await startGatedMetaToolServer('assay-lease-e2e-');
  ({ server, gate, dir } = fixture);
});

after(() => fixture.close());

const runArgs = (db: string): string[] => [
  'run', 'metatool/similar', '--model', MODEL, '--base-url', server.url,
  '--per-tool', '4', '--limit', String(SAMPLES), '--seed', '11', '--concurrency', '4', '--no-cache', '--json', '--db', db,
];

interface RunRow {
  id: string;
  status: string;
  lease?: { holder: { pid: number; host: string }; expiresAt: string; live: boolean };
}

async function runsJson(db: string): Promise<RunRow[]> {
  const listed = await runAssay(['runs', '--json', '--db', db], env);
  assert.equal(listed.code, 0, listed.stderr);
  return JSON.parse(listed.stdout) as RunRow[];
}

/**
 * Starts a run with a short lease, lets it finish some samples, then holds the server's answers
 * (so the process has calls in flight and is surely alive and running) and returns it.
 */
async function startHeldRun(db: string, ttlMs: number): Promise<{ child: ReturnType<typeof spawnAssay>; exited: Promise<CliResult> }> {
  gate.open();
  const child = spawnAssay(runArgs(db), { ...env, ASSAY_LEASE_TTL_MS: String(ttlMs) });
  const exited = collect(child);
  const from = server.requestCount;
  await waitUntil(() => server.requestCount >= from + 60, 'the run to get going');
  gate.close();
  return { child, exited };
}

/** What the store says after a kill: the run, the samples finished, and each sample's prompt (the server's key). */
async function storedState(db: string): Promise<{ runId: string; finished: Set<string>; calls: number }> {
  const store = await openSqliteStore(db);
  try {
    const [run] = await store.listRuns();
    assert.ok(run);
    const finished = new Set((await store.results(run.id)).filter((r) => r.status === 'done').map((r) => r.sampleId));
    return { runId: run.id, finished, calls: (await store.calls(run.id)).length };
  } finally {
    await store.close();
  }
}

/** The server's key (the prompt) of each sample of a run, once all are stored. */
async function promptsOf(db: string, runId: string): Promise<Map<string, string>> {
  const store = await openSqliteStore(db);
  try {
    return new Map((await store.loadSamples(runId)).map((s) => [s.id, String(s.input[0]?.content ?? '')]));
  } finally {
    await store.close();
  }
}

/** Every pending sample was asked for exactly once after `from`, and no finished one. */
function assertEachPendingCalledOnce(from: number, finished: Set<string>, prompts: Map<string, string>): void {
  const keys = server.requests.slice(from).map((r) => r.key);
  const finishedKeys = new Set([...finished].map((id) => prompts.get(id)));
  assert.equal(keys.filter((k) => finishedKeys.has(k)).length, 0, 'no finished sample was called again');
  assert.equal(new Set(keys).size, keys.length, 'no pending sample was called twice');
  assert.equal(keys.length, SAMPLES - finished.size, 'every pending sample was called');
}

const refusal = (runId: string, pid: number): RegExp =>
  new RegExp(`^assay: run ${runId} is being run by another process \\(pid ${pid} on ${hostname().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, since \\d{4}-\\S+Z; its lease expires at \\d{4}-\\S+Z unless renewed\\): not starting a second one; if that process is gone, resume once its lease has expired\\n$`);

test('two resumes started together on a killed run: one takes it over and calls each pending sample once; the other is refused with one line, exit 2', { skip }, async (t) => {
  const db = join(dir, 'two-resumes.db');
  const { child, exited } = await startHeldRun(db, 1000);
  child.kill('SIGKILL');
  assert.equal((await exited).signal, 'SIGKILL');
  const killed = await storedState(db);
  assert.ok(killed.finished.size > 0 && killed.finished.size < SAMPLES, `finished before the kill: ${killed.finished.size}`);
  // Both resumes must find the killed holder's lease expired: wait for it (1 s after its last renewal).
  await waitUntil(async () => (await runsJson(db))[0]?.status === 'stale', 'the killed run to show as stale');

  // Answers are held until one of the two has exited, so the winner cannot finish before the other has tried.
  const from = server.requests.length;
  const first = spawnAssay(['resume', killed.runId, '--json', '--db', db], env);
  const second = spawnAssay(['resume', killed.runId, '--json', '--db', db], env);
  const results = [collect(first), collect(second)];
  await Promise.race(results);
  gate.open();
  const [a, b] = await Promise.all(results);
  assert.ok(a && b);
  const [winner, loser, winnerPid] = a.code === 0 ? [a, b, first.pid] : [b, a, second.pid];
  assert.equal(winner.code, 0, winner.stderr);
  assert.equal(loser.code, 2, loser.stderr);
  assert.match(loser.stderr, refusal(killed.runId, winnerPid as number));
  assert.equal(loser.stdout, '');
  assert.match(winner.stderr, new RegExp(`took run ${killed.runId} over from pid ${child.pid} on \\S+, whose lease expired at \\S+ without being released`));
  const summary = JSON.parse(winner.stdout) as { status: string; models: Record<string, { counts: { done: number } }> };
  assert.equal(summary.status, 'finished');
  assert.equal(summary.models[MODEL]?.counts.done, SAMPLES);

  // The server's ledger: each pending sample once. The store: one call row per sample (no retries here).
  assertEachPendingCalledOnce(from, killed.finished, await promptsOf(db, killed.runId));
  const end = await storedState(db);
  assert.equal(end.calls, SAMPLES);
  t.diagnostic(`finished before the kill ${killed.finished.size}; requests by the resumes ${server.requests.length - from} for ${SAMPLES - killed.finished.size} pending; call rows ${end.calls} for ${SAMPLES} samples`);
  const [row] = await runsJson(db);
  assert.deepEqual([row?.status, row?.lease], ['finished', undefined]);
});

test('kill -9 of the lease holder: while it lives a resume is refused; once killed the run shows stale, and a resume after the expiry takes it over', { skip }, async () => {
  const db = join(dir, 'killed-holder.db');
  const { child, exited } = await startHeldRun(db, 3000);
  // Alive, with calls in flight: running, held by the child.
  const [live] = await runsJson(db);
  assert.ok(live);
  assert.equal(live.status, 'running');
  assert.equal(live.lease?.holder.pid, child.pid);
  const refused = await runAssay(['resume', live.id, '--db', db], env);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, refusal(live.id, child.pid as number));

  child.kill('SIGKILL');
  assert.equal((await exited).signal, 'SIGKILL');
  const killed = await storedState(db);
  // Nobody said the run stopped: its stored status is still running, and it is shown stale once the lease lapses.
  await waitUntil(async () => (await runsJson(db))[0]?.status === 'stale', 'the killed run to show as stale');
  const text = await runAssay(['runs', '--db', db], env);
  assert.match(text.stdout, new RegExp(`^${live.id}\\s+metatool/similar\\s+stale\\s`, 'm'));
  const shown = await runAssay(['show', live.id, '--db', db], env);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, new RegExp(`^run ${live.id}  task metatool/similar  status stale$`, 'm'));
  assert.match(shown.stdout, new RegExp(`^stale: stored as running, but its lease \\(pid ${child.pid} on \\S+\\) expired at \\S+ — the process stopped without saying so; continue with: assay resume ${live.id}$`, 'm'));

  gate.open();
  const from = server.requests.length;
  const resumed = await runAssay(['resume', live.id, '--json', '--db', db], env);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stderr, new RegExp(`took run ${live.id} over from pid ${child.pid} `));
  assert.equal((JSON.parse(resumed.stdout) as { status: string }).status, 'finished');
  assertEachPendingCalledOnce(from, killed.finished, await promptsOf(db, live.id));
  assert.equal((await runsJson(db))[0]?.status, 'finished');
});
