import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mapPacked } from './packed-map.js';

test('mapPacked maps as Array.prototype.map does: values in order, with their index', () => {
  assert.deepEqual(mapPacked(['a', 'b', 'c'], (x, i) => `${i}${x}`), ['0a', '1b', '2c']);
  assert.deepEqual(mapPacked([], (x) => x), []);
  const input = [1, 2];
  mapPacked(input, (x) => x * 2);
  assert.deepEqual(input, [1, 2]);
});
