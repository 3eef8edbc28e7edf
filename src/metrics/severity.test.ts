import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aggregateSeverity } from './severity.js';

describe('aggregateSeverity', () => {
  it('odd count: the median, max − min, share equal to the median', () => {
    // [4, 4, 2] sorted → 2, 4, 4: median 4; spread 4 − 2 = 2; two of three are 4 → 2/3.
    assert.deepEqual(aggregateSeverity([4, 4, 2]), { value: 4, spread: 2, agreement: 2 / 3, readable: 3, unreadable: 0 });
  });

  it('even count after dropping the unreadable: the lower median, a value on the scale', () => {
    // [3, 1, 2, null, 5]: readable 1, 2, 3, 5 (4 of them); the middle two are 2 and 3 → lower median 2
    // (not 2.5); spread 5 − 1 = 4; one of the four is 2 → 1/4; one unreadable.
    assert.deepEqual(aggregateSeverity([3, 1, 2, null, 5]), { value: 2, spread: 4, agreement: 0.25, readable: 4, unreadable: 1 });
  });

  it('a tie between two levels takes the lower one', () => {
    // 2, 2, 4, 4: middle two 2 and 4 → 2; half the repeats are 2.
    assert.deepEqual(aggregateSeverity([4, 2, 4, 2]), { value: 2, spread: 2, agreement: 0.5, readable: 4, unreadable: 0 });
  });

  it('all equal: spread 0, agreement 1', () => {
    assert.deepEqual(aggregateSeverity([3, 3, 3, 3, 3]), { value: 3, spread: 0, agreement: 1, readable: 5, unreadable: 0 });
  });

  it('no readable repeat is no verdict, never a severity', () => {
    assert.deepEqual(aggregateSeverity([null, null, null]), { value: null, spread: null, agreement: null, readable: 0, unreadable: 3 });
    assert.deepEqual(aggregateSeverity([]), { value: null, spread: null, agreement: null, readable: 0, unreadable: 0 });
  });

  it('with a scale, off-scale and fractional readings are unreadable', () => {
    // 1..5 scale: 7 and 2.5 are dropped; readable 3, 4 → lower median 3.
    assert.deepEqual(aggregateSeverity([7, 3, 2.5, 4], { min: 1, max: 5 }), { value: 3, spread: 1, agreement: 0.5, readable: 2, unreadable: 2 });
  });
});
