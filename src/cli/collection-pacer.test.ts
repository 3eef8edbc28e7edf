import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collectionPacer } from './collection-pacer.js';

const MB = 1024 * 1024;

test('collectionPacer: reads old space every N samples and collects once it has grown by the bound since the first reading after the last collection', () => {
  // Old space in use at each reading, in MB, and the progress counts the run reports.
  const readings = [10, 12, 14, 11, 14.9, 15, 30];
  const read: number[] = [];
  let collections = 0;
  const pace = collectionPacer({
    growth: 4 * MB,
    every: 1000,
    minIntervalMs: 0,
    used: () => {
      const mb = readings[read.length] as number;
      read.push(mb);
      return mb * MB;
    },
    collect: () => collections++,
  });
  const told = (finished: number): boolean => pace(finished);
  assert.equal(told(1), false);
  assert.equal(told(999), false);
  assert.deepEqual(read, [], 'nothing read before the first thousand');
  assert.equal(told(1000), false, '10 MB: the baseline');
  assert.equal(told(1500), false, 'not read between checks');
  assert.equal(told(2003), false, '12 MB: +2');
  assert.equal(told(3003), true, '14 MB: +4, collected');
  assert.equal(collections, 1);
  assert.equal(told(4003), false, '11 MB: the new baseline, after the collection');
  assert.equal(told(5003), false, '14.9 MB: +3.9');
  assert.equal(told(6003), true, '15 MB: +4, collected');
  assert.equal(told(7003), false, '30 MB: a baseline again, whatever it reads');
  assert.equal(collections, 2);
  assert.deepEqual(read, readings);
});

test('collectionPacer: a count that jumps past several checks reads once, and the next check is counted from it', () => {
  let reads = 0;
  const pace = collectionPacer({ every: 1000, used: () => (reads++, 0), collect: () => assert.fail('nothing grew') });
  pace(5500);
  pace(6000);
  pace(6499);
  assert.equal(reads, 1);
  pace(6500);
  assert.equal(reads, 2);
});

test('collectionPacer: never two collections closer than the least interval, however fast old space grows', () => {
  let clock = 0;
  let mb = 0;
  const collected: number[] = [];
  const pace = collectionPacer({ growth: 4 * MB, every: 1000, minIntervalMs: 10_000, now: () => clock, used: () => mb * MB, collect: () => collected.push(clock) });
  // 8 MB more every thousand samples, a thousand samples a second.
  for (let finished = 1000; finished <= 30_000; finished += 1000) {
    clock = finished;
    mb += 8;
    pace(finished);
  }
  assert.deepEqual(collected, [2000, 12_000, 22_000], 'the first once grown, then one each 10 s');
});
