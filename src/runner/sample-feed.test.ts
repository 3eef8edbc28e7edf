import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { user, type Sample } from '../core/index.js';
import type { RunRecord } from '../store/records.js';
import { openSqliteStore } from '../store/index.js';
import { SampleFeed } from './sample-feed.js';

const sample = (id: string): Sample => ({ id, input: [user(`question ${id}`)], target: null, metadata: {} });
const samples = Array.from({ length: 10 }, (_, i) => sample(`s${i}`));

const run = (sampleCount: number): RunRecord => ({
  id: 'feed-run',
  task: 't',
  taskVersion: '1',
  status: 'running',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  models: ['m'],
  settings: {},
  seed: 0,
  options: {},
  engine: {}, provenance: { datasetChecksums: {}, promptVersion: 'p', toolkitVersion: '0' }, events: [],
  judge: null,
  sampleCount,
});

const storedIds = async (store: Awaited<ReturnType<typeof openSqliteStore>>): Promise<string[]> => (await store.loadSamples('feed-run')).map((s) => s.id);
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('SampleFeed', () => {
  it('answers at once for stored samples and writes the next chunk once the calls come within half a chunk', async () => {
    const store = await openSqliteStore(':memory:');
    await store.createRun(run(10), samples.slice(0, 4));
    const feed = new SampleFeed(store, 'feed-run', samples, 4, 4);
    assert.equal(feed.ready(0), undefined);
    assert.equal(feed.ready(1), undefined);
    await turn();
    assert.equal(feed.storedCount, 4, 'sample 1 is more than half a chunk from the end: nothing written');
    assert.equal(feed.ready(2), undefined, 'sample 2 is stored: no wait, but the next chunk starts');
    await feed.settle();
    assert.equal(feed.storedCount, 8);
    assert.deepEqual(await storedIds(store), samples.slice(0, 8).map((s) => s.id));
    // A sample past the stored ones waits for its chunk, which stops at the end of the run.
    const waiting = feed.ready(9);
    assert.ok(waiting instanceof Promise);
    await waiting;
    assert.equal(feed.storedCount, 10);
    assert.deepEqual(await storedIds(store), samples.map((s) => s.id));
    assert.equal(feed.ready(9), undefined);
    await assert.rejects(new SampleFeed(store, 'feed-run', samples, 10, 4).ready(10) ?? Promise.resolve(), RangeError);
    await store.close();
  });

  it('waits across several chunks for a sample far ahead', async () => {
    const store = await openSqliteStore(':memory:');
    await store.createRun(run(10), samples.slice(0, 2));
    const feed = new SampleFeed(store, 'feed-run', samples, 2, 2);
    await feed.ready(7);
    assert.ok(feed.storedCount >= 8);
    await feed.settle();
    assert.deepEqual(await storedIds(store), samples.slice(0, feed.storedCount).map((s) => s.id));
    await store.close();
  });

  it('hands a failed write to every call that needs its samples, and to later ones, never leaving a rejection unhandled', async () => {
    const store = await openSqliteStore(':memory:');
    // A sample id repeated in the second chunk: the store refuses the whole chunk.
    const broken = [...samples.slice(0, 4), sample('s1'), ...samples.slice(5)];
    await store.createRun(run(10), broken.slice(0, 4));
    const feed = new SampleFeed(store, 'feed-run', broken, 4, 4);
    assert.equal(feed.ready(3), undefined, 'a stored sample goes ahead; the chunk it starts fails in the background');
    // Nobody waits for that chunk yet: its failure must not be an unhandled rejection (which fails this test).
    for (let i = 0; i < 3; i++) await turn();
    await assert.rejects(feed.ready(5) ?? Promise.resolve(), /UNIQUE|PRIMARY KEY/);
    await assert.rejects(feed.ready(0) ?? Promise.resolve(), /UNIQUE|PRIMARY KEY/, 'once failed, the run stops asking');
    assert.equal(feed.storedCount, 4);
    assert.deepEqual(await storedIds(store), ['s0', 's1', 's2', 's3']);
    await store.close();
  });
});
