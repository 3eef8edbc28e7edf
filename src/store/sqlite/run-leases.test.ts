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
  engine: {}, provenance: { datasetChecksums: {}, promptVersion: 'p1', toolkitVersion: '0.1.0' }, events: [],
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

// The lease's behaviour is the Store contract's (test-support/store-contract.ts). Here: SQLite
// measures leases by an injectable clock (the process's by default), so times are exact.
test('a lease\'s times are the store\'s clock: taken, refused and renewed by the clock the store was given', async () => {
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

test('a lease lapses by the injected clock, not by waiting', async () => {
  const { a, b, clock, close } = await twoStores();
  try {
    await a.acquireRunLease(RUN_ID, alice, 1000);
    clock.now = T0 + 900;
    assert.equal(await a.renewRunLease(RUN_ID, alice.id, 1000), true);
    clock.now = T0 + 1899;
    assert.equal((await b.runLease(RUN_ID))?.live, true);
    clock.now = T0 + 1900; // the renewed lease ended at T0 + 1900: expired now
    assert.equal((await b.runLease(RUN_ID))?.live, false);
    const claim = await b.acquireRunLease(RUN_ID, bob, 1000);
    assert.ok(claim.acquired && claim.tookOverFrom?.holder.id === alice.id);
    assert.equal(claim.lease.acquiredAt, new Date(T0 + 1900).toISOString());
  } finally {
    await close();
  }
});
