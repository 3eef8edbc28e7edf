import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { ResultRecord } from '../store/records.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { makeRun, samples } from '../store/test-support/store-contract.js';
import { FleetStops, STOPS_REFRESH_MS } from './fleet-stops.js';

const errorResult = { runId: makeRun().id, sampleId: 'q-beta', modelId: 'openai:gpt-4o-mini', status: 'error' } as ResultRecord;

test('a stop one worker finds is recorded with the run, and another worker starts none of that model’s units once its view is refreshed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'assay-fleet-stops-'));
  const store = await openSqliteStore(join(dir, 's.db'));
  try {
    const run = makeRun();
    await store.createRun(run, samples);
    let now = 0;
    const a = new FleetStops(store, () => now);
    const b = new FleetStops(store, () => now);
    assert.equal(await b.stopFor(run.id, run, 'openai:gpt-4o-mini'), undefined, 'nothing stopped yet (b has read the run)');
    // Worker a: a 401 on one of its units.
    const verdict = a.failFastFor(run.id, run).failed({ actor: 'openai:gpt-4o-mini', role: 'test', kind: 'auth', message: 'HTTP 401' }, errorResult);
    assert.deepEqual(verdict, { hold: false, release: [] }, 'the error is stored as it comes');
    assert.equal((await a.stopFor(run.id, run, 'openai:gpt-4o-mini'))?.kind, 'auth', 'a knows at once');
    assert.equal(await a.stopFor(run.id, run, 'baseline:lexical'), undefined, 'another model goes on');
    assert.deepEqual((await a.record(run.id, run.id)).map((s) => s.kind), ['auth']);
    assert.deepEqual(await a.record(run.id, run.id), [], 'recorded once');
    const stored = await store.getRun(run.id);
    assert.equal(stored?.status, 'interrupted');
    // Worker b reads the run again only once its view is STOPS_REFRESH_MS old.
    assert.equal(await b.stopFor(run.id, run, 'openai:gpt-4o-mini'), undefined);
    now += STOPS_REFRESH_MS;
    assert.equal((await b.stopFor(run.id, run, 'openai:gpt-4o-mini'))?.message, 'HTTP 401');
    assert.equal(await b.stopFor(run.id, run, 'baseline:lexical'), undefined);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a run made with --no-fail-fast never stops', async () => {
  const run = makeRun({ engine: { ...makeRun().engine, failFast: false } });
  const stops = new FleetStops({} as never);
  const ff = stops.failFastFor(run.id, run);
  ff.failed({ actor: 'openai:gpt-4o-mini', role: 'test', kind: 'auth', message: 'HTTP 401' }, errorResult);
  assert.equal(ff.stopped('openai:gpt-4o-mini'), false);
  assert.deepEqual(await stops.record(run.id, run.id), []);
});

test('a reading of the run given with the unit (the worker’s start-state read) is taken as the view of the fleet’s stops: no read of its own, and none until that reading is STOPS_REFRESH_MS old', async () => {
  const run = makeRun();
  const auth = { actor: 'openai:gpt-4o-mini', role: 'test', kind: 'auth', message: 'HTTP 401', count: 1 } as const;
  let reads = 0;
  const store = { getRun: async () => (reads++, { ...run, status: 'running' }) } as never;
  let now = 0;
  const stops = new FleetStops(store, () => now);
  // Another worker has stopped the model: the reading says so, and no read is made.
  const stopped = { status: 'interrupted', events: [{ type: 'failFast', stops: [auth] }] } as const;
  assert.equal((await stops.stopFor(run.id, run, 'openai:gpt-4o-mini', stopped))?.message, 'HTTP 401');
  assert.equal(await stops.stopFor(run.id, run, 'baseline:lexical', stopped), undefined, 'another model goes on');
  // Without a reading: the last one stands until it is STOPS_REFRESH_MS old.
  now += STOPS_REFRESH_MS - 1;
  assert.equal((await stops.stopFor(run.id, run, 'openai:gpt-4o-mini'))?.kind, 'auth');
  assert.equal(reads, 0, 'the store is not read while a reading is fresh');
  now += 1;
  assert.equal(await stops.stopFor(run.id, run, 'openai:gpt-4o-mini'), undefined, 'read again: the store says running, no stop');
  assert.equal(reads, 1);
  // A newer reading replaces the view, whatever its age.
  assert.equal((await stops.stopFor(run.id, run, 'openai:gpt-4o-mini', stopped))?.kind, 'auth');
  assert.equal(reads, 1);
});
