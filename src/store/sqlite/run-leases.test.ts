import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { LeaseHolder, RunRecord } from '../records.js';
import { openSqliteStore, type SqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'assay-lease-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const RUN_ID = '20260301-120000-ab12';
const run: RunRecord = {
  id: RUN_ID,
  task: 'metatool/similar',
  taskVersion: '1',
  status: 'running',
  createdAt: '2026-03-01T12:00:00.000Z',
  updatedAt: '2026-03-01T12:00:00.000Z',
  models: ['baseline:lexical'],
  settings: {},
  seed: 0,
  options: {},
  datasetChecksums: {},
  promptVersion: 'p1',
  toolkitVersion: '0.1.0',
  engine: {},
  judge: null,
};

const alice: LeaseHolder = { id: 'holder-a', pid: 101, host: 'host-a' };
const bob: LeaseHolder = { id: 'holder-b', pid: 202, host: 'host-b' };
const T0 = Date.parse('2026-03-01T12:00:00.000Z');

let files = 0;
/**
 * Two stores (two connections, as two processes would have) on one new file with a run in it,
 * sharing a clock the test moves by hand.
 */
async function twoStores(): Promise<{ a: SqliteStore; b: SqliteStore; clock: { now: number }; close: () => Promise<void> }> {
  const file = join(dir, `lease-${++files}.db`);
  const clock = { now: T0 };
  const options = { backgroundCheckpoints: false, clock: () => clock.now };
  const a = await openSqliteStore(file, options);
  await a.createRun(run, []);
  const b = await openSqliteStore(file, options);
  return { a, b, clock, close: async () => void (await Promise.all([a.close(), b.close()])) };
}

test('a live lease refuses a second holder, naming the first; the holder itself may acquire again', async () => {
  const { a, b, close } = await twoStores();
  try {
    const first = await a.acquireRunLease(RUN_ID, alice, 30_000);
    assert.equal(first.acquired, true);
    assert.ok(first.acquired && first.tookOverFrom === undefined);
    assert.deepEqual(first.acquired && first.lease, {
      runId: RUN_ID,
      holder: alice,
      acquiredAt: '2026-03-01T12:00:00.000Z',
      heartbeatAt: '2026-03-01T12:00:00.000Z',
      expiresAt: '2026-03-01T12:00:30.000Z',
    });
    const second = await b.acquireRunLease(RUN_ID, bob, 30_000);
    assert.equal(second.acquired, false);
    assert.deepEqual(!second.acquired && second.heldBy.holder, alice);
    assert.equal((await b.runLease(RUN_ID))?.holder.id, alice.id, 'the refused attempt changed nothing');
    assert.equal((await a.acquireRunLease(RUN_ID, alice, 30_000)).acquired, true);
  } finally {
    await close();
  }
});

test('renewal keeps a lease live past its first expiry; once it lapses another holder takes it over and the old holder can neither renew nor release it', async () => {
  const { a, b, clock, close } = await twoStores();
  try {
    await a.acquireRunLease(RUN_ID, alice, 1000);
    clock.now = T0 + 900;
    assert.equal(await a.renewRunLease(RUN_ID, alice.id, 1000), true);
    clock.now = T0 + 1500; // past the first expiry, before the renewed one
    assert.equal((await b.runLease(RUN_ID))?.live, true);
    assert.equal((await b.acquireRunLease(RUN_ID, bob, 1000)).acquired, false);

    clock.now = T0 + 1900; // the renewed lease ended at T0 + 1900: expired now
    assert.equal((await b.runLease(RUN_ID))?.live, false);
    const claim = await b.acquireRunLease(RUN_ID, bob, 1000);
    assert.equal(claim.acquired, true);
    assert.deepEqual(claim.acquired && claim.tookOverFrom?.holder, alice);
    assert.equal(claim.acquired && claim.lease.acquiredAt, new Date(T0 + 1900).toISOString());

    assert.equal(await a.renewRunLease(RUN_ID, alice.id, 1000), false, 'the old holder learns it lost the run');
    const stop = { actor: 'openai:m', role: 'test' as const, kind: 'auth', message: 'HTTP 401', count: 1 };
    assert.equal(await a.releaseRunLease(RUN_ID, alice.id, { status: 'interrupted', failFastStops: [stop] }), false);
    assert.equal((await b.getRun(RUN_ID))?.status, 'running', 'the old holder did not overwrite the new holder\'s status');
    assert.deepEqual((await b.getRun(RUN_ID))?.engine, {}, 'nor record its stops');
    assert.equal((await b.runLease(RUN_ID))?.holder.id, bob.id);
  } finally {
    await close();
  }
});

test('release ends the lease and sets the final status in one go; the run is then free to acquire', async () => {
  const { a, b, close } = await twoStores();
  try {
    await a.acquireRunLease(RUN_ID, alice, 30_000);
    assert.equal(await a.releaseRunLease(RUN_ID, alice.id, { status: 'interrupted', failFastStops: [] }), true);
    assert.equal(await b.runLease(RUN_ID), undefined);
    assert.equal((await b.getRun(RUN_ID))?.status, 'interrupted');
    const claim = await b.acquireRunLease(RUN_ID, bob, 30_000);
    assert.ok(claim.acquired && claim.tookOverFrom === undefined, 'a released lease is not a takeover');
  } finally {
    await close();
  }
});

test('release records the models the session stopped early in the engine JSON, beside its other keys; the next session\'s end replaces them', async () => {
  const { a, b, close } = await twoStores();
  try {
    const stop = { actor: 'openai:m', role: 'test' as const, kind: 'auth', message: 'HTTP 401 from POST /v1/chat/completions: "it\'s" \\ wrong', count: 1 };
    const id = '20260301-120000-cd34';
    await a.createRun({ ...run, id, engine: { concurrency: 2, dataDir: '/data' } }, []);
    await a.acquireRunLease(id, alice, 30_000);
    assert.equal(await a.releaseRunLease(id, alice.id, { status: 'interrupted', failFastStops: [stop] }), true);
    assert.deepEqual((await b.getRun(id))?.engine, { concurrency: 2, dataDir: '/data', failFastStops: [stop] }, 'read back exactly, from another connection');
    await b.acquireRunLease(id, bob, 30_000);
    assert.equal(await b.releaseRunLease(id, bob.id, { status: 'finished', failFastStops: [] }), true);
    assert.deepEqual((await a.getRun(id))?.engine, { concurrency: 2, dataDir: '/data' }, 'a session that stopped nothing clears them');
  } finally {
    await close();
  }
});

test('a lease on a run that does not exist is refused; a bad time to live is a programming error', async () => {
  const { a, close } = await twoStores();
  try {
    await assert.rejects(a.acquireRunLease('no-such-run', alice, 1000), /no run no-such-run/);
    await assert.rejects(a.acquireRunLease(RUN_ID, alice, 0), /positive whole number/);
  } finally {
    await close();
  }
});
