import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stratifiedPositions } from './stratified-sample.js';

const countBy = (categories: readonly (string | undefined)[], positions: readonly number[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const p of positions) counts[categories[p] ?? '(none)'] = (counts[categories[p] ?? '(none)'] ?? 0) + 1;
  return counts;
};

describe('stratifiedPositions', () => {
  // 50 a, 30 b, 20 c, interleaved unevenly: a's first, so the first 10 are all a.
  const categories = [...Array<string>(50).fill('a'), ...Array<string>(30).fill('b'), ...Array<string>(20).fill('c')];

  it('draws each category in proportion to its size, in position order', () => {
    const positions = stratifiedPositions(categories, 10, 1);
    // 10 of 100: a 50·10/100 = 5, b 3, c 2 exactly.
    assert.deepEqual(countBy(categories, positions), { a: 5, b: 3, c: 2 });
    assert.deepEqual(positions, [...positions].sort((x, y) => x - y));
    assert.equal(new Set(positions).size, 10);
  });

  it('the same seed gives the same sample; another seed another sample with the same proportions', () => {
    const one = stratifiedPositions(categories, 10, 1);
    assert.deepEqual(stratifiedPositions(categories, 10, 1), one);
    const two = stratifiedPositions(categories, 10, 2);
    assert.notDeepEqual(two, one);
    assert.deepEqual(countBy(categories, two), { a: 5, b: 3, c: 2 });
  });

  it('the positions left over go to the largest remainders, ties to the larger category', () => {
    const small = [...Array<string>(7).fill('a'), 'b', 'b', 'c'];
    // 5 of 10: a 3.5, b 1, c 0.5 → 3, 1, 0 and one left; a and c tie on .5, a is larger → a 4, b 1.
    assert.deepEqual(countBy(small, stratifiedPositions(small, 5, 0)), { a: 4, b: 1 });
  });

  it('without categories: a plain seeded sample; at least as many as there are: all of them', () => {
    const none = Array<undefined>(20).fill(undefined);
    const positions = stratifiedPositions(none, 4, 7);
    assert.equal(positions.length, 4);
    assert.notDeepEqual(positions, [0, 1, 2, 3]);
    assert.deepEqual(stratifiedPositions(none, 20, 7), [...Array(20).keys()]);
    assert.deepEqual(stratifiedPositions(['x', 'y'], 5, 7), [0, 1]);
  });
});
