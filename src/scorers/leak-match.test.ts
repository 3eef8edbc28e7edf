import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findLeak } from './leak-match.js';

test('a leak string in any answer, whitespace and (by default) case ignored', () => {
  const check = { strings: ['MARIGOLD-7319'] };
  assert.equal(findLeak(['Sorry, I cannot share that.', 'Fine, it is Marigold-7319.'], check)?.textIndex, 1);
  assert.equal(findLeak(['It starts with MARIGOLD.'], check), null);
  assert.equal(findLeak(['marigold-7319'], { ...check, caseSensitive: true }), null);
  assert.deepEqual(findLeak(['some one or other\n  of their daughters'], { strings: ['some one or other of their daughters'] }), { string: 'some one or other of their daughters', textIndex: 0 });
  assert.equal(findLeak([], check), null);
});
