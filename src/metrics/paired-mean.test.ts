import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pairedMeanDifference } from './paired-mean.js';

describe('pairedMeanDifference', () => {
  it('(1,2), (2,4), (3,6) by hand: means 2 and 4, difference 2; test p = 2/8; bootstrap bounds 1 and 3', () => {
    const r = pairedMeanDifference(
      [
        [1, 2],
        [2, 4],
        [3, 6],
      ],
      { seed: 'hand' },
    );
    assert.equal(r.n, 3);
    assert.equal(r.first, 2);
    assert.equal(r.second, 4);
    assert.equal(r.difference, 2);
    assert.deepEqual(r.test, { p: 0.25, exact: true, resamples: null });
    // Differences 1, 2, 3: a resample's mean is 1 only when all three draws are 1 (1/27 ≈ 3.7% >
    // 2.5%), and likewise 3; so the 2.5% and 97.5% quantiles of 2,000 resamples are 1 and 3.
    assert.deepEqual(r.interval, { low: 1, high: 3 });
    assert.deepEqual([r.higher, r.lower, r.equal], [3, 0, 0]);
  });

  it('keeps the pairing: a constant shift of 1 has the interval [1, 1] however spread the values are', () => {
    const pairs = [0, 10, 3, 7, 1, 9].map((a) => [a, a + 1] as const);
    const r = pairedMeanDifference(pairs, { seed: 'shift' });
    assert.deepEqual(r.interval, { low: 1, high: 1 });
    assert.equal(r.test.p, 2 / 64); // six equal gains: only all-plus and all-minus are as extreme
  });

  it('counts ups, downs and ties; is reproducible for a seed', () => {
    const pairs = [
      [2, 1],
      [1, 1],
      [0, 3],
      [4, 4],
    ] as const;
    const r = pairedMeanDifference(pairs, { seed: 's' });
    assert.deepEqual([r.higher, r.lower, r.equal], [1, 1, 2]);
    assert.equal(r.difference, 0.5); // (−1 + 0 + 3 + 0) / 4
    assert.deepEqual(pairedMeanDifference(pairs, { seed: 's' }), r);
  });

  it('no pairs: no means, no interval, no p', () => {
    const r = pairedMeanDifference([], { seed: 'none' });
    assert.deepEqual([r.n, r.first, r.second, r.difference, r.interval, r.test.p], [0, null, null, null, null, null]);
  });
});
