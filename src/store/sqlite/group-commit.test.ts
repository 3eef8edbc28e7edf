import assert from 'node:assert/strict';
import { setImmediate as nextCheck, setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { GroupCommit, type Waiting } from './group-commit.js';

/** A group commit over strings on a clock the test moves; records each batch it writes. */
function recording(gatherMs = 30): { group: GroupCommit<string>; batches: string[][]; clock: { now: number } } {
  const batches: string[][] = [];
  const clock = { now: 1000 };
  const commit = (batch: readonly Waiting<string>[]): void => {
    batches.push(batch.map((w) => w.item));
    for (const w of batch) w.resolve(!w.item.startsWith('refused'));
  };
  return { group: new GroupCommit(commit, gatherMs, () => clock.now), batches, clock };
}

test('saves of one turn are written in one batch at the next turn, each told its outcome', async () => {
  const { group, batches } = recording();
  const saved = [group.add('a', false), group.add('refused b', false), group.add('c', true)];
  assert.deepEqual(batches, []);
  await nextCheck();
  assert.deepEqual(batches, [['a', 'refused b', 'c']]);
  assert.deepEqual(await Promise.all(saved), [true, false, true]);
});

test('a gathered save waits for the gap after the previous commit; one that is not takes the gathered with it', async () => {
  // A gap no loaded machine reaches between two turns of the event loop.
  const { group, batches } = recording(60_000);
  await group.add('first', false);
  const gathered = group.add('gathered', true);
  await nextCheck();
  await nextCheck();
  assert.deepEqual(batches, [['first']]);
  const waited = group.add('waited', false);
  await nextCheck();
  assert.deepEqual(batches, [['first'], ['gathered', 'waited']]);
  assert.deepEqual(await Promise.all([gathered, waited]), [true, true]);
});

test('a gathered save with no other save after it is written once the gap has passed', async () => {
  const { group, batches } = recording(20);
  await group.add('first', false);
  assert.equal(await group.add('alone', true), true);
  assert.deepEqual(batches, [['first'], ['alone']]);
});

test('after a quiet spell longer than the gap a gathered save is written at the next turn', async () => {
  const { group, batches, clock } = recording(30);
  await group.add('first', false);
  clock.now += 31;
  const gathered = group.add('later', true);
  await nextCheck();
  assert.deepEqual(batches, [['first'], ['later']]);
  assert.equal(await gathered, true);
});

test('flush writes what waits at once, and the timer then finds nothing to write', async () => {
  const { group, batches } = recording(5);
  await group.add('first', false);
  const gathered = [group.add('x', true), group.add('y', true)];
  group.flush();
  assert.deepEqual(batches, [['first'], ['x', 'y']]);
  assert.deepEqual(await Promise.all(gathered), [true, true]);
  await sleep(20);
  assert.equal(batches.length, 2);
  group.flush();
  assert.equal(batches.length, 2);
});
