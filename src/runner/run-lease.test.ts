import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createScriptedProvider } from '../models/providers/scripted/index.js';
import { openSqliteStore } from '../store/index.js';
import { writeSyntheticMetaTool } from '../testing/synthetic-metatool.js';
import { leaseSettings, RunLeasedError } from './run-lease.js';
import { resumeRun, startRun } from './run.js';
import type { RunSpec } from './run-spec.js';

const dir = mkdtempSync(join(tmpdir(), 'assay-run-lease-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const MODEL = 'scripted:slow';
const SAMPLES = 40;
const spec: RunSpec = {
  task: 'metatool/similar',
  models: [MODEL],
  seed: 3,
  options: { perTool: 1, limit: SAMPLES },
  // The leases are what is tested, not the data: a small synthetic MetaTool set, one query per tool.
  dataDir: writeSyntheticMetaTool(join(dir, 'data'), { tools: SAMPLES, queriesPerTool: 1 }).dir,
  allowModifiedData: true,
  engine: { concurrency: 3, timeoutMs: 60_000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: false },
};

/** A model that answers after a few milliseconds, so that calls are in flight when a run is stopped. */
const slowModel = () => createScriptedProvider({ id: MODEL, respond: async () => (await new Promise((r) => setTimeout(r, 15)), 'None') });

let files = 0;
const dbFile = (): string => join(dir, `run-${++files}.db`);

test('leases: settings derive a heartbeat of a sixth of the time to live, and refuse nonsense', () => {
  assert.deepEqual(leaseSettings(), { ttlMs: 30_000, heartbeatMs: 5_000 });
  assert.deepEqual(leaseSettings({ ttlMs: 600 }), { ttlMs: 600, heartbeatMs: 100 });
  assert.throws(() => leaseSettings({ ttlMs: 0 }), /positive whole number/);
  assert.throws(() => leaseSettings({ ttlMs: 100, heartbeatMs: 100 }), /must be shorter/);
});

test('a finished run has released its lease; a resume while another process holds the lease is refused before any call', async () => {
  const file = dbFile();
  const store = await openSqliteStore(file);
  const other = await openSqliteStore(file);
  try {
    const stop = new AbortController();
    const first = slowModel();
    const stopped = await startRun(spec, { store, providers: { [MODEL]: first }, stop: stop.signal, onProgress: (e) => e.finished >= 5 && stop.abort() });
    assert.equal(stopped.status, 'interrupted');
    assert.equal(await store.runLease(stopped.run), undefined, 'released when the session ended');

    // Another process (its own connection) holds the run now.
    const holder = { id: 'other-session', pid: 4242, host: 'elsewhere' };
    assert.equal((await other.acquireRunLease(stopped.run, holder, 60_000)).acquired, true);
    const second = slowModel();
    await assert.rejects(resumeRun(stopped.run, {}, { store, providers: { [MODEL]: second } }), (error: unknown) => {
      assert.ok(error instanceof RunLeasedError);
      assert.match(error.message, new RegExp(`^run ${stopped.run} is being run by another process \\(pid 4242 on elsewhere, since \\S+; its lease expires at \\S+ unless renewed\\): not starting a second one`));
      assert.doesNotMatch(error.message, /\n/);
      return true;
    });
    assert.equal(second.calls.length, 0);
    assert.equal((await store.getRun(stopped.run))?.status, 'interrupted', 'the refused resume wrote nothing');
    assert.equal((await store.runLease(stopped.run))?.holder.id, holder.id);

    // Once that process releases it, the resume goes ahead and calls only what was left.
    assert.equal(await other.releaseRunLease(stopped.run, holder.id), true);
    const resumed = await resumeRun(stopped.run, {}, { store, providers: { [MODEL]: second } });
    assert.equal(resumed.status, 'finished');
    assert.equal(first.calls.length + second.calls.length, SAMPLES, 'no sample called twice');
  } finally {
    await Promise.all([store.close(), other.close()]);
  }
});

test('a graceful stop lets the calls in flight finish and stores them: every call made has its result', async () => {
  const store = await openSqliteStore(dbFile());
  try {
    const stop = new AbortController();
    const model = slowModel();
    const stopped = await startRun(spec, { store, providers: { [MODEL]: model }, stop: stop.signal, onProgress: (e) => e.finished >= 4 && stop.abort() });
    assert.equal(stopped.status, 'interrupted');
    const done = (await store.results(stopped.run)).filter((r) => r.status === 'done').length;
    assert.ok(done < SAMPLES, `done: ${done}`);
    // Workers were mid-call when the stop came; none of those calls was thrown away.
    assert.equal(model.calls.length, done);
    assert.equal((await store.calls(stopped.run)).length, done);
  } finally {
    await store.close();
  }
});

test('a run whose lease is taken over (it stalled past the expiry) stops starting samples, says why, and leaves the status to the new holder', async () => {
  const file = dbFile();
  const store = await openSqliteStore(file);
  // The other process's clock runs ten minutes ahead: to it the lease has expired (as after a long stall here).
  const thief = await openSqliteStore(file, { clock: () => Date.now() + 600_000 });
  try {
    const warnings: string[] = [];
    const model = slowModel();
    let stolen: Promise<unknown> | undefined;
    const summary = await startRun(spec, {
      store,
      providers: { [MODEL]: model },
      lease: { ttlMs: 60_000, heartbeatMs: 20 },
      onWarning: (w) => warnings.push(w),
      onProgress: (e) => {
        if (e.finished >= 3 && !stolen) stolen = thief.acquireRunLease(e.runId, { id: 'thief', pid: 7, host: 'other-host' }, 60_000);
      },
    });
    assert.ok(stolen);
    assert.equal(((await stolen) as { acquired: boolean }).acquired, true);
    assert.equal(summary.status, 'interrupted');
    // The synthetic data's own warning aside (it is not the pinned data), the one warning is the takeover.
    assert.deepEqual(warnings.filter((w) => !w.startsWith('--allow-modified-data:')), [`run ${summary.run} was taken over by pid 7 on other-host after this process's lease expired: no new sample starts in this process; the calls in flight finish and are stored`]);
    const done = (await store.results(summary.run)).length;
    assert.ok(done < SAMPLES, `done: ${done}`);
    assert.equal(model.calls.length, done, 'the calls in flight were finished and stored');
    assert.equal((await store.getRun(summary.run))?.status, 'running', 'the old holder did not write its status over the new holder\'s');
    assert.equal((await store.runLease(summary.run))?.holder.id, 'thief');
  } finally {
    await Promise.all([store.close(), thief.close()]);
  }
});
