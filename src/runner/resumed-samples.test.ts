import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InputError, user, type Sample } from '../core/index.js';
import type { RunRecord } from '../store/records.js';
import { openSqliteStore } from '../store/index.js';
import type { Store } from '../store/store.js';
import { RESUMED_PAGE, ResumedSamples } from './resumed-samples.js';

/** A task's sample i: stored without its hints, rebuilt with them. */
const rebuiltSample = (i: number): Sample => ({ id: `s${i}`, input: [user(`question ${i}`)], target: null, metadata: { i }, hints: { kind: 'test', question: `hint ${i}` } });
const storedSample = (i: number): Sample => {
  const { hints: _hints, ...stored } = rebuiltSample(i);
  return stored;
};
/** What a resumed session should read at position i: the stored sample, its position, the rebuilt task's hints. */
const expected = (i: number): Sample => ({ ...storedSample(i), index: i, hints: { kind: 'test', question: `hint ${i}` } }) as Sample;

const SAMPLES = RESUMED_PAGE * 12 + 5;

const run = (sampleCount: number): RunRecord => ({
  id: 'resumed-run', task: 't', taskVersion: '1', status: 'interrupted', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z',
  models: ['m'], settings: {}, seed: 0, options: {}, engine: {}, events: [], judge: null, sampleCount,
  provenance: { datasetChecksums: {}, promptVersion: 'p', toolkitVersion: '0' },
});

/** The store with its page reads counted. */
async function countingStore(stored: number, sampleCount = SAMPLES): Promise<{ store: Store; pageReads: () => number }> {
  const store = await openSqliteStore(':memory:');
  await store.createRun(run(sampleCount), Array.from({ length: stored }, (_, i) => storedSample(i)));
  let reads = 0;
  const load = store.loadSamples.bind(store);
  store.loadSamples = async (runId, range) => {
    reads++;
    return load(runId, range);
  };
  return { store, pageReads: () => reads };
}

const rebuilt = Array.from({ length: SAMPLES }, (_, i) => rebuiltSample(i));

/** Reads position i as the engine does: `ready`, waited for if it must be, then `at`. */
async function read(samples: ResumedSamples, i: number): Promise<Sample | undefined> {
  await samples.ready(i);
  return samples.at(i);
}

describe('ResumedSamples', () => {
  it('reads the stored samples a page at a time as they are asked for, each with the rebuilt hints', async () => {
    const { store, pageReads } = await countingStore(SAMPLES);
    const samples = await ResumedSamples.open(store, run(SAMPLES), rebuilt);
    assert.equal(pageReads(), 0, 'opening reads the ids only (the samples’ facts)');
    assert.equal(samples.length, SAMPLES);
    assert.deepEqual(samples.ids(), rebuilt.map((s) => s.id));
    for (let i = 0; i < SAMPLES; i++) assert.deepEqual(await read(samples, i), expected(i), `sample ${i}`);
    assert.equal(pageReads(), Math.ceil(SAMPLES / RESUMED_PAGE), 'each page read once in a sweep');
    assert.equal(samples.at(SAMPLES), undefined);
    assert.equal(samples.at(-1), undefined);
    await store.close();
  });

  it('a page a call waits for is kept however many others are read; an idle one is read again once dropped', async () => {
    const { store, pageReads } = await countingStore(SAMPLES);
    const samples = await ResumedSamples.open(store, run(SAMPLES), rebuilt);
    // A call made sample 3 ready and has not read it yet, while the others go through every page.
    await samples.ready(3);
    for (let i = RESUMED_PAGE; i < SAMPLES; i++) await read(samples, i);
    const before = pageReads();
    assert.deepEqual(samples.at(3), expected(3), 'the waited-for page is still there');
    assert.equal(pageReads(), before);
    // Page 1 has been dropped since (more idle pages were read after it than are kept): read again.
    assert.deepEqual(await read(samples, RESUMED_PAGE + 1), expected(RESUMED_PAGE + 1));
    assert.equal(pageReads(), before + 1);
    // Two calls in one page that is loading share its read.
    const a = samples.ready(RESUMED_PAGE * 2);
    const b = samples.ready(RESUMED_PAGE * 2 + 1);
    assert.ok(a instanceof Promise && a === b);
    await a;
    assert.deepEqual([samples.at(RESUMED_PAGE * 2), samples.at(RESUMED_PAGE * 2 + 1)], [expected(RESUMED_PAGE * 2), expected(RESUMED_PAGE * 2 + 1)]);
    assert.equal(pageReads(), before + 2);
    await store.close();
  });

  it('a stored sample read without being made ready is a bug, said as one', async () => {
    const { store } = await countingStore(SAMPLES);
    const samples = await ResumedSamples.open(store, run(SAMPLES), rebuilt);
    assert.throws(() => samples.at(RESUMED_PAGE * 5), /stored sample 320 of run resumed-run read before it was made ready/);
    await store.close();
  });

  it('a run stopped before storing all its samples: the rest are the rebuilt task’s, stored just ahead of their calls', async () => {
    const storedCount = RESUMED_PAGE * 2 + 7;
    const { store } = await countingStore(storedCount);
    const samples = await ResumedSamples.open(store, run(SAMPLES), rebuilt);
    assert.equal(samples.storedCount, storedCount);
    assert.equal(samples.length, SAMPLES);
    assert.deepEqual(samples.ids(), rebuilt.map((s) => s.id));
    assert.deepEqual(await read(samples, storedCount - 1), expected(storedCount - 1));
    // The first unstored sample: stored by the time it is ready, and given as the rebuilt task builds it.
    assert.deepEqual(await read(samples, storedCount), rebuilt[storedCount]);
    assert.ok((await store.loadSamples('resumed-run')).length > storedCount);
    await read(samples, SAMPLES - 1);
    await samples.settle();
    assert.deepEqual((await store.loadSamples('resumed-run')).map((s) => s.id), rebuilt.map((s) => s.id), 'every sample stored, in order');
    await store.close();
  });

  it('refuses, before anything is read, a rebuilt task that no longer gives the stored samples first', async () => {
    const { store } = await countingStore(10);
    const moved = rebuilt.map((s, i) => (i === 4 ? { ...s, id: 'other' } : s));
    await assert.rejects(ResumedSamples.open(store, run(SAMPLES), moved), (error: unknown) => error instanceof InputError && /sample 4 is "other" now, "s4" then/.test(error.message));
    await assert.rejects(ResumedSamples.open(store, run(SAMPLES), rebuilt.slice(0, 20)), /20 samples now, 773 then/);
    await store.close();
  });
});
