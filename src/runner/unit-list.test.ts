import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UnitList } from './unit-list.js';

test('a unit list gives back each unit in the order it was pushed, and refuses what it does not hold', () => {
  const list = new UnitList(5);
  assert.equal(list.length, 0);
  const pushed: [number, number][] = [
    [0, 0],
    [3, 0],
    [0, 1],
    [2_000_000, 7],
  ];
  for (const [position, repeat] of pushed) list.push(position, repeat);
  assert.equal(list.length, 4);
  assert.deepEqual(
    pushed.map((_, i) => [list.positionAt(i), list.repeatAt(i)]),
    pushed,
  );
  assert.throws(() => list.positionAt(4), RangeError);
  assert.throws(() => list.repeatAt(-1), RangeError);
  list.push(9, 9);
  assert.throws(() => list.push(10, 0), /full/);
});
