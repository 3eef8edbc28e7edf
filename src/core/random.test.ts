import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rngFor } from './random.js';

describe('rngFor', () => {
  it('draws the same sequence for the same seed and label, another for another label', () => {
    const draws = (label: string): number[] => {
      const rng = rngFor(7, label);
      return Array.from({ length: 5 }, () => rng.next());
    };
    assert.deepEqual(draws('a'), draws('a'));
    assert.notDeepEqual(draws('a'), draws('b'));
    for (const x of draws('a')) assert.ok(x >= 0 && x < 1);
  });

  it('ints fills its array with the draws that as many calls of int would make, and the state goes on from there', () => {
    for (const n of [1, 2, 3, 10, 997, 2 ** 31 + 5]) {
      const one = rngFor(3, `ints-${n}`);
      const bulk = rngFor(3, `ints-${n}`);
      // Interleaved with single draws, so the state that ints leaves behind is checked too.
      for (const length of [0, 1, 17, 1000]) {
        const expected = Array.from({ length }, () => one.int(n));
        const out = new Uint32Array(length);
        bulk.ints(n, out);
        assert.deepEqual([...out], expected, `n ${n}, length ${length}`);
        assert.equal(bulk.next(), one.next(), `n ${n}: the draw after ${length}`);
        assert.equal(bulk.int(n), one.int(n));
      }
    }
  });
});
