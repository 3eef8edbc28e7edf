import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import type { Store } from '../store/store.js';
import { makeResult, makeRun, samples } from '../store/test-support/store-contract.js';
import { waitingStore } from './waiting-store.js';

const dir = mkdtempSync(join(tmpdir(), 'assay-waiting-store-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

const refused = (): Error => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

/** A real store whose `getRun` and `saveOutcome` fail as an unreachable server would, `outage` times each, then work. */
async function flakyStore(outage: number): Promise<{ store: Store; real: Store; tries: { getRun: number; saveOutcome: number } }> {
  const real = await openSqliteStore(join(dir, `s${files++}.db`));
  await real.createRun(makeRun(), samples);
  const tries = { getRun: 0, saveOutcome: 0 };
  const store: Store = Object.assign(Object.create(real) as Store, {
    isUnavailable: (error: unknown) => (error as { code?: string }).code === 'ECONNREFUSED',
    getRun: async (id: string) => (++tries.getRun <= outage ? Promise.reject(refused()) : real.getRun(id)),
    saveOutcome: async (...args: Parameters<Store['saveOutcome']>) => (++tries.saveOutcome <= outage ? Promise.reject(refused()) : real.saveOutcome(...args)),
  });
  return { store, real, tries };
}

test('an unreachable store is waited for: the call is tried again until it answers, said once when it goes and once when it comes back', async () => {
  const { store, real, tries } = await flakyStore(3);
  const notes: string[] = [];
  const waiting = waitingStore(store, { onNote: (line) => notes.push(line), firstDelayMs: 5, maxDelayMs: 20 });
  assert.equal((await waiting.getRun(makeRun().id))?.id, makeRun().id);
  assert.equal(tries.getRun, 4);
  // An outcome paid for is saved once the store is back, once.
  assert.equal(await waiting.saveOutcome([], makeResult()), true);
  assert.equal(tries.saveOutcome, 4);
  assert.equal((await real.results(makeRun().id)).length, 1);
  assert.equal(notes.length, 4, notes.join('\n'));
  assert.match(notes[0] as string, /^store unreachable \(.*ECONNREFUSED.*\): waiting for it to come back/);
  assert.equal(notes[1], 'store: reachable again, going on');
  await real.close();
});

test('any other error is thrown at once; a wait is given up when the signal aborts', async () => {
  const { store, real, tries } = await flakyStore(1_000_000);
  const waiting = waitingStore(store, { firstDelayMs: 5, maxDelayMs: 5 });
  // A refused write (not an outage): thrown on the first try.
  const other = waitingStore(Object.assign(Object.create(real) as Store, { isUnavailable: () => false }));
  await assert.rejects(other.saveOutcome([], makeResult({ sampleId: 'no such sample' })));
  const stop = new AbortController();
  const pending = assert.rejects(waitingStore(store, { signal: stop.signal, firstDelayMs: 5, maxDelayMs: 5 }).getRun('x'), /ECONNREFUSED/);
  setTimeout(() => stop.abort(), 50);
  await pending;
  assert.ok(tries.getRun > 1, `tried ${tries.getRun} times before the stop`);
  // Not retried: what is not a call to the server.
  assert.equal(waiting.isUnavailable(refused()), true);
  await real.close();
});
