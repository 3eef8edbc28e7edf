import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { InputError } from '../../core/errors.js';
import { openSqliteStore } from '../sqlite/sqlite-store.js';
import type { Store } from '../store.js';
import { parseStoreUrl } from '../store-url.js';
import { makeCall, makeResult, makeRun, samples } from '../test-support/store-contract.js';
import { everything, fillRun } from '../test-support/run-copy-contract.js';
import { copyRuns, type CopyOptions, type CopyOutcome } from './copy-runs.js';
import { copySuiteRuns } from './copy-suite-runs.js';
import type { SuiteRunRecord } from '../records.js';
import { differingParts, runChecksum } from './run-digest.js';
import { openStorePair, sameLocation } from './store-pair.js';

// Copying runs between two real SQLite files (PostgreSQL both ways: test/e2e/migrate.services.test.ts).
const dir = mkdtempSync(join(tmpdir(), 'assay-copy-runs-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newFile = (): string => join(dir, `store-${++files}.db`);

/** A source holding `full` (every kind of record, 5 samples) and `small` (3 samples, one outcome), and an empty target. */
async function twoStores(): Promise<{ source: Store; target: Store; targetFile: string; close: () => Promise<void> }> {
  const targetFile = newFile();
  const source = await openSqliteStore(newFile());
  const target = await openSqliteStore(targetFile);
  await fillRun(source);
  await source.createRun(makeRun({ id: 'small', status: 'finished', createdAt: '2026-01-01T00:00:00.000Z' }), samples);
  await source.saveOutcome([makeCall({ runId: 'small' })], makeResult({ runId: 'small' }));
  return { source, target, targetFile, close: async () => void (await Promise.all([source.close(), target.close()])) };
}

async function collect(source: Store, target: Store, options: CopyOptions = {}): Promise<CopyOutcome[]> {
  const outcomes: CopyOutcome[] = [];
  for await (const outcome of copyRuns(source, target, { pageSize: 2, ...options })) outcomes.push(outcome);
  return outcomes;
}

test('runs are copied oldest first, page by page, and read back the same; a second copy finds them already there', async () => {
  const { source, target, targetFile, close } = await twoStores();
  try {
    const progress: string[] = [];
    const outcomes = await collect(source, target, { onProgress: (p) => progress.push(`${p.runId} ${p.doing} ${p.samples}`) });
    assert.deepEqual(outcomes.map((o) => [o.runId, o.status]), [['small', 'copied'], ['full', 'copied']]);
    const full = outcomes[1];
    assert.ok(full?.status === 'copied');
    // Hand-counted from fillRun: 5 samples; 2 + 2 + 1 + 1 calls; 3 results; 2 reviews.
    assert.deepEqual(full.checksum.counts, { run: 1, samples: 5, calls: 6, results: 3, reviews: 2 });
    assert.deepEqual(progress.filter((p) => p.startsWith('full copying')), ['full copying 2', 'full copying 4', 'full copying 5']);
    for (const id of ['small', 'full']) assert.deepEqual(await everything(target, id), await everything(source, id));
    assert.deepEqual((await target.listRuns()).map((r) => r.id), (await source.listRuns()).map((r) => r.id));
    // The call whose messages are its sample's input is stored by reference again, not with a copy of the prompt.
    const raw = new Database(targetFile, { readonly: true });
    const stored = raw.prepare<[], { request: string }>("SELECT request FROM calls WHERE run_id = 'full' AND sample_id = 's4' AND role = 'test'").get();
    raw.close();
    assert.equal(stored?.request, '{"messages":"$sample.input","settings":{"temperature":0}}');

    const again = await collect(source, target, { pageSize: 1000 });
    assert.deepEqual(again.map((o) => [o.runId, o.status]), [['small', 'already there'], ['full', 'already there']]);
    assert.equal(again[1]?.status === 'already there' && again[1].checksum.checksum, full.checksum.checksum, 'the page size does not change the checksum');
  } finally {
    await close();
  }
});

test('a run the target holds with other content is refused, naming the part; --replace copies it again', async () => {
  const { source, target, targetFile, close } = await twoStores();
  try {
    await collect(source, target);
    const raw = new Database(targetFile);
    raw.prepare("UPDATE results SET score = '{\"value\":false}' WHERE run_id = 'full' AND sample_id = 's4'").run();
    raw.close();
    const [small, full] = await collect(source, target);
    assert.equal(small?.status, 'already there');
    assert.ok(full?.status === 'refused');
    assert.equal(full.reason, 'the target holds run full with other content (results: 3 in both, contents differ); --replace overwrites it');
    assert.equal((await target.results('full')).find((r) => r.sampleId === 's4')?.score?.value, false, 'refused: the target is untouched');

    const [, replaced] = await collect(source, target, { replace: true });
    assert.ok(replaced?.status === 'copied' && replaced.replaced);
    assert.deepEqual(await everything(target, 'full'), await everything(source, 'full'));
  } finally {
    await close();
  }
});

test('a copy that reads back differently is removed from the target and names the part; a refused record leaves nothing', async () => {
  const { source, target, close } = await twoStores();
  try {
    // A target that stores a different score than it was given: the read-back checksum must catch it.
    const corrupting: Store = Object.assign(Object.create(target) as Store, {
      importRun: async (run: Parameters<Store['importRun']>[0]) => {
        const inner = await target.importRun(run);
        return { ...inner, add: (slice: Parameters<typeof inner.add>[0]) => inner.add({ ...slice, results: slice.results.map((r) => ({ ...r, cached: !r.cached })) }) };
      },
    });
    const outcomes = await collect(source, corrupting, { runs: ['full'] });
    assert.equal(outcomes.length, 1);
    const mismatch = outcomes[0];
    assert.ok(mismatch?.status === 'mismatch');
    assert.deepEqual(mismatch.parts, ['results']);
    assert.equal(await target.getRun('full'), undefined, 'the bad copy is gone');

    const refusing: Store = Object.assign(Object.create(target) as Store, {
      importRun: async (run: Parameters<Store['importRun']>[0]) => {
        const inner = await target.importRun(run);
        let pages = 0;
        return { ...inner, add: async (slice: Parameters<typeof inner.add>[0]) => (++pages === 2 ? Promise.reject(new Error('value too long\nfor column')) : inner.add(slice)) };
      },
    });
    const [failed] = await collect(source, refusing, { runs: ['full'] });
    assert.ok(failed?.status === 'failed');
    assert.equal(failed.reason, 'the target refused it, nothing of it was kept: value too long for column');
    assert.equal(await target.getRun('full'), undefined);
    assert.deepEqual(await target.runSlice('full', 0, 10), { samples: [], calls: [], results: [], reviews: [] });
  } finally {
    await close();
  }
});

test('a running run (live lease) is refused, a stale one is copied; runs are named by prefix; an unknown one is an InputError', async () => {
  const { source, target, close } = await twoStores();
  try {
    await source.acquireRunLease('full', { id: 'h', pid: 4242, host: 'box' }, 60_000);
    const [refused] = await collect(source, target, { runs: ['fu'] });
    assert.ok(refused?.status === 'refused');
    assert.match(refused.reason, /^running: pid 4242 on box holds its lease \(until .*\); copy it once it stops$/);
    assert.equal(await target.getRun('full'), undefined);
    // `small` is stored as running with no lease: stale, copied as it is (a resume in the target can finish it).
    await source.setRunStatus('small', 'running');
    const [stale] = await collect(source, target, { runs: ['small', 'sma'] });
    assert.equal(stale?.status, 'copied');
    assert.equal((await target.getRun('small'))?.status, 'running');
    assert.equal(await target.runLease('small'), undefined, 'leases are not copied');
    await assert.rejects(collect(source, target, { runs: ['nope'] }), (e: unknown) => e instanceof InputError && /no run nope in the store to copy from/.test(e.message));
  } finally {
    await close();
  }
});

test('the checksum ignores the order of an object’s keys but not the order or value of anything else', async () => {
  const request = { settings: { temperature: 0 }, messages: [{ role: 'user', content: 'x' }] };
  const reordered = { messages: [{ content: 'x', role: 'user' }], settings: { temperature: 0 } };
  /** The checksum of run `a` in a new store holding these calls. */
  const checksumWith = async (calls: Parameters<typeof makeCall>[0][]) => {
    const store = await openSqliteStore(newFile());
    try {
      await store.createRun(makeRun({ id: 'a' }), samples);
      await store.saveCalls(calls.map((c) => makeCall({ runId: 'a', ...c })));
      return await runChecksum(store, (await store.getRun('a')) ?? assert.fail(), 2);
    } finally {
      await store.close();
    }
  };
  const base = await checksumWith([{ request }, { attempt: 2 }]);
  assert.deepEqual(differingParts(base, await checksumWith([{ request: reordered }, { attempt: 2 }])), []);
  assert.deepEqual(differingParts(base, await checksumWith([{ attempt: 2 }, { request }])), ['calls'], 'the calls in another order');
  assert.deepEqual(differingParts(base, await checksumWith([{ request }, { attempt: 2, latencyMs: 1 }])), ['calls'], 'one value');
});

test('the stores of a copy: the same one twice, and a SQLite source that does not exist, are refused before anything is opened', async () => {
  const file = newFile();
  await (await openSqliteStore(file)).close();
  const link = join(dir, 'link.db');
  symlinkSync(file, link);
  assert.equal(sameLocation(parseStoreUrl(file), parseStoreUrl(`sqlite:${link}`)), true);
  assert.equal(sameLocation(parseStoreUrl(file), parseStoreUrl(newFile())), false);
  assert.equal(sameLocation(parseStoreUrl('postgres://a:x@Db:5432/assay'), parseStoreUrl('postgresql://b@db/assay')), true, 'the login does not matter, the default port is 5432');
  assert.equal(sameLocation(parseStoreUrl('postgres://db/assay?options=-c%20search_path%3Dx'), parseStoreUrl('postgres://db/assay?options=-c%20search_path%3Dy')), false);
  await assert.rejects(openStorePair(file, link), /^InputError: --from and --to are the same store/);
  const missing = join(dir, 'no-such.db');
  await assert.rejects(openStorePair(missing, newFile()), (e: unknown) => e instanceof InputError && e.message === `no SQLite store at ${missing} to copy from (--from): check the path, or see assay runs --db <store>`);
});

test("a suite run's recorded gates go with its runs; one with none recorded is said; a second copy finds them there; other content is replaced by the source's", async () => {
  const source = await openSqliteStore(newFile());
  const target = await openSqliteStore(newFile());
  try {
    const member = (id: string, suiteRun: string) => makeRun({ id, status: 'finished', createdAt: '2026-01-02T00:00:00.000Z', suiteRun: { id: suiteRun, suite: 'release', entry: 0, entries: 1 } });
    await source.createRun(member('m1', 'suite-20260102-000000-aaaa'), samples);
    await source.createRun(member('m2', 'suite-20260102-000000-bbbb'), samples);
    const gates: SuiteRunRecord = {
      id: 'suite-20260102-000000-aaaa', suite: 'release', decidedAt: '2026-01-02T00:01:00.000Z',
      runs: [{ entry: 0, task: 'metatool-awareness', run: 'm1', status: 'finished' }],
      gates: [{ kind: 'threshold', entry: 'metatool-awareness', task: 'metatool-awareness', model: 'openai:m', metric: 'accuracy', unit: 'share', rule: 'min 90.0%', outcome: 'fail', value: 0.5, interval: { low: 0.2, high: 0.8 }, relation: 'misses', reason: '50.0% is below 90.0%' }],
      strict: false, sampleErrors: 0, interrupted: false, exitCode: 4,
    };
    await source.saveSuiteRun(gates);
    await collect(source, target);
    const runs = await source.listRuns();
    assert.deepEqual(await copySuiteRuns(source, target, runs), [
      { suiteRun: 'suite-20260102-000000-aaaa', status: 'copied' },
      { suiteRun: 'suite-20260102-000000-bbbb', status: 'none recorded' },
    ]);
    assert.deepEqual(await target.suiteRun(gates.id), gates);
    assert.equal(await target.suiteRun('suite-20260102-000000-bbbb'), undefined);
    assert.deepEqual((await copySuiteRuns(source, target, runs)).map((c) => c.status), ['already there', 'none recorded']);
    await target.saveSuiteRun({ ...gates, exitCode: 0, gates: [] });
    assert.deepEqual((await copySuiteRuns(source, target, runs)).map((c) => c.status), ['copied', 'none recorded']);
    assert.deepEqual(await target.suiteRun(gates.id), gates);
    // Runs that are no suite's members bring none.
    assert.deepEqual(await copySuiteRuns(source, target, [makeRun({ id: 'alone' })]), []);
  } finally {
    await Promise.all([source.close(), target.close()]);
  }
});

test("a run without repeats sums as it did before calls recorded their repeat (schema v11): the copy's check reads old and new runs alike", async () => {
  const store = await openSqliteStore(newFile());
  try {
    await fillRun(store);
    const run = await store.getRun('full');
    assert.ok(run);
    const sum = await runChecksum(store, run, 2);
    // Taken from fillRun's run with the build before v11 (the run record's own sum holds the time
    // its status was set, so it is left out): a repeat-0 call has no `repeat` field, so its record,
    // and every sum over it, is the same as before.
    assert.deepEqual(
      { samples: sum.sums.samples, calls: sum.sums.calls, results: sum.sums.results, reviews: sum.sums.reviews },
      {
        samples: '214c65597a103ec3c7fa09de1e1f64bc9b8b0bd418a3827bb8d22f81b55d7737',
        calls: '7cbaa038b37c08f0411bebc301041f7f9a4418f8352744a616bbbe2ed9cb2552',
        results: 'f4603f6c1315aabbec03dc5bdce19012847188424e946f82a77cb059b38398f4',
        reviews: 'a668d1f7572d6ca4aca938767733944190a67d7348a00d51ac45b8874dca5c57',
      },
    );
  } finally {
    await store.close();
  }
});

test("a run with repeats is copied with each call's repeat, and its sum counts them: the same calls under another repeat sum otherwise", async () => {
  const source = await openSqliteStore(newFile());
  const target = await openSqliteStore(newFile());
  const other = await openSqliteStore(newFile());
  try {
    for (const [store, repeatOfThird] of [[source, 2], [other, 1]] as const) {
      await store.createRun(makeRun({ id: 'repeated', repeats: 3, status: 'finished', updatedAt: '2026-03-01T12:00:00.000Z' }), samples);
      await store.saveOutcome([makeCall({ runId: 'repeated' })], makeResult({ runId: 'repeated' }));
      await store.saveOutcome([makeCall({ runId: 'repeated', repeat: repeatOfThird, role: 'judge', actor: 'openai:judge' })], makeResult({ runId: 'repeated', repeat: repeatOfThird }));
    }
    const outcomes = await collect(source, target);
    assert.deepEqual(outcomes.map((o) => [o.runId, o.status]), [['repeated', 'copied']]);
    assert.deepEqual((await target.calls('repeated')).map((c) => c.repeat ?? 0), [0, 2]);
    assert.deepEqual(await everything(target, 'repeated'), await everything(source, 'repeated'));
    const run = await source.getRun('repeated');
    const otherRun = await other.getRun('repeated');
    assert.ok(run && otherRun);
    assert.deepEqual(differingParts(await runChecksum(source, run, 2), await runChecksum(other, otherRun, 2)), ['calls', 'results']);
  } finally {
    await Promise.all([source.close(), target.close(), other.close()]);
  }
});
