import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rangeBounds } from './sample-range.js';

test('rangeBounds: positions [from, from + limit); the whole run without a range; bad numbers refused', () => {
  assert.deepEqual(rangeBounds({ from: 2000, limit: 2000 }), { from: 2000, to: 4000 });
  assert.deepEqual(rangeBounds({ from: 0, limit: 0 }), { from: 0, to: 0 });
  assert.deepEqual(rangeBounds(), { from: 0, to: Number.MAX_SAFE_INTEGER });
  assert.deepEqual(rangeBounds({ from: 5, limit: Number.MAX_SAFE_INTEGER }), { from: 5, to: Number.MAX_SAFE_INTEGER });
  for (const bad of [{ from: -1, limit: 1 }, { from: 0, limit: -1 }, { from: 0.5, limit: 1 }, { from: 0, limit: Number.NaN }]) assert.throws(() => rangeBounds(bad), RangeError, JSON.stringify(bad));
});
