import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kappaInterval, severityAgreement } from './agreement.js';
import { binaryAgreement } from './binary-agreement.js';
import { KAPPA_UNDEFINED_NO_VARIATION, KAPPA_UNDEFINED_ONE_RATER_CONSTANT, confusionMatrix, quadraticWeightedKappa } from './weighted-kappa.js';

const close = (actual: number | null | undefined, expected: number): void => assert.ok(typeof actual === 'number' && Math.abs(actual - expected) < 1e-12, `${actual} ≠ ${expected}`);

describe('severity agreement (ordinal)', () => {
  // Six items on a 1–3 scale, [first rater, second rater]:
  const pairs: [number, number][] = [[1, 1], [1, 2], [2, 2], [3, 3], [3, 1], [2, 2]];

  it('exact, relaxed, confusion matrix (rows = first rater)', () => {
    const result = severityAgreement(pairs, { min: 1, max: 3 }, { resamples: 200 });
    // Exact: (1,1), (2,2), (3,3), (2,2) → 4/6. Relaxed (|a − b| ≤ 1): all but (3,1) → 5/6.
    assert.equal(result.n, 6);
    close(result.exact, 4 / 6);
    close(result.relaxed, 5 / 6);
    assert.deepEqual(result.confusion, { levels: [1, 2, 3], counts: [[1, 1, 0], [0, 2, 0], [1, 0, 1]] });
  });

  it('quadratic-weighted kappa = 2/7 by hand', () => {
    // k = 3 levels, agreement weights w = 1 − (i − j)²/4: 1 on the diagonal, 0.75 one apart, 0 two apart.
    // Observed (in counts): 1·1 + 0.75·1 [(1,2)] + 1·2 + 0·1 [(3,1)] + 1·1 = 4.75.
    // Row sums r = (2, 2, 2), column sums c = (2, 3, 1), n = 6; expected count E_ij = r_i c_j / 6 = (2/3, 1, 1/3) in every row.
    // Expected weighted: row 1: 2/3 + 0.75 + 0 = 17/12; row 2: 0.75·2/3 + 1 + 0.75·1/3 = 1.75; row 3: 0 + 0.75 + 1/3 = 13/12 → 4.25.
    // κ = (4.75 − 4.25)/(6 − 4.25) = 0.5/1.75 = 2/7 ≈ 0.285714.
    // (The same with disagreement weights (i − j)²: Σd·O = 1 + 4 = 5, Σd·E = 7/3 + 1 + 11/3 = 7, κ = 1 − 5/7.)
    close(quadraticWeightedKappa(confusionMatrix(pairs, { min: 1, max: 3 })).kappa, 2 / 7);
    const result = severityAgreement(pairs, { min: 1, max: 3 }, { resamples: 200 });
    close(result.kappa, 2 / 7);
    assert.equal(result.kappaNote, undefined);
  });

  it('perfect agreement is 1; a level nobody used still counts in the weights', () => {
    // 1–5 scale, ratings only 1 and 5, always equal: observed = n, so κ = 1.
    close(quadraticWeightedKappa(confusionMatrix([[1, 1], [5, 5]], { min: 1, max: 5 })).kappa, 1);
    // Opposite ends swapped: O on (1,5),(5,1) with weight 0 → observed 0; r = c = (1,0,0,0,1), E = 0.5 in the four corners,
    // weighted expected = 0.5 + 0.5 (diagonal corners, w = 1) + 0 = 1; κ = (0 − 1)/(2 − 1) = −1.
    close(quadraticWeightedKappa(confusionMatrix([[1, 5], [5, 1]], { min: 1, max: 5 })).kappa, -1);
  });

  it('the interval is one computation of the pairs: the same pairs in any order give the same interval, which holds the estimate', () => {
    const many: [number, number][] = [];
    for (let i = 0; i < 60; i++) many.push([1 + (i % 5), 1 + ((i + (i % 3 === 0 ? 1 : 0)) % 5)]);
    const one = severityAgreement(many, { min: 1, max: 5 }, { resamples: 500 });
    const two = severityAgreement([...many].reverse(), { min: 1, max: 5 }, { resamples: 500 });
    assert.deepEqual(one.kappaInterval, two.kappaInterval);
    assert.deepEqual(one.kappaInterval, kappaInterval(many, { min: 1, max: 5 }, 500));
    assert.notDeepEqual(one.kappaInterval, kappaInterval(many.slice(1), { min: 1, max: 5 }, 500), 'other pairs, another interval');
    assert.ok(one.kappaInterval && one.kappa !== null && one.kappaInterval.low <= one.kappa && one.kappa <= one.kappaInterval.high, JSON.stringify(one));
  });

  it('degenerate cases: kappa null with the reason, never NaN', () => {
    // Both raters always 3: r = c = (0,0,1), p_e = 1 → 0/0.
    const same = severityAgreement([[3, 3], [3, 3]], { min: 1, max: 5 }, { resamples: 50 });
    assert.deepEqual([same.exact, same.kappa, same.kappaNote, same.kappaInterval], [1, null, KAPPA_UNDEFINED_NO_VARIATION, null]);
    const none = severityAgreement([], { min: 1, max: 5 });
    assert.deepEqual([none.n, none.exact, none.relaxed, none.kappa, none.kappaNote, none.kappaInterval], [0, null, null, null, 'undefined: no items', null]);
    assert.throws(() => severityAgreement([[0, 1]], { min: 1, max: 5 }), RangeError);
  });

  it('one rater at a single level, the other varying: no value (the formula would give 0 whatever the pairs)', () => {
    // Judge always 2; human 1, 2, 3: r = (0,3,0), c = (1,1,1); observed = expected = 0.75 + 1 + 0.75 → κ = 0/…, given null.
    const constant = severityAgreement([[2, 1], [2, 2], [2, 3]], { min: 1, max: 3 }, { resamples: 50 });
    assert.deepEqual([constant.kappa, constant.kappaNote, constant.kappaInterval], [null, KAPPA_UNDEFINED_ONE_RATER_CONSTANT, null]);
    close(constant.exact, 1 / 3);
    assert.equal(quadraticWeightedKappa(confusionMatrix([[1, 4], [2, 4], [5, 4]], { min: 1, max: 5 })).kappa, null);
  });
});

describe('binary agreement (judge defect vs string-match truth)', () => {
  it('2×2 table, exact agreement and kappa by hand', () => {
    // 3 × both yes, 1 × judge only, 2 × truth only, 4 × neither; n = 10.
    // p_o = (3 + 4)/10 = 0.7; judge yes 4/10, truth yes 5/10; p_e = 0.4·0.5 + 0.6·0.5 = 0.5; κ = (0.7 − 0.5)/0.5 = 0.4.
    const pairs: [boolean, boolean][] = [
      ...Array.from({ length: 3 }, (): [boolean, boolean] => [true, true]),
      [true, false],
      ...Array.from({ length: 2 }, (): [boolean, boolean] => [false, true]),
      ...Array.from({ length: 4 }, (): [boolean, boolean] => [false, false]),
    ];
    const result = binaryAgreement(pairs);
    assert.deepEqual(result.table, { both: 3, firstOnly: 1, secondOnly: 2, neither: 4 });
    assert.equal(result.n, 10);
    close(result.exact, 0.7);
    close(result.kappa, 0.4);
  });

  it('kappa undefined when both say the same one thing for every item, and no value when one rater never varies', () => {
    const allNo = binaryAgreement([[false, false], [false, false]]);
    assert.deepEqual([allNo.exact, allNo.kappa, allNo.kappaNote], [1, null, KAPPA_UNDEFINED_NO_VARIATION]);
    // Judge always no, truth yes once of 4: p_o = 3/4, p_e = 0·0.25 + 1·0.75 = 0.75 → κ would be 0 whatever the truth: null.
    const judgeConstant = binaryAgreement([[false, true], [false, false], [false, false], [false, false]]);
    assert.deepEqual([judgeConstant.kappa, judgeConstant.kappaNote], [null, KAPPA_UNDEFINED_ONE_RATER_CONSTANT]);
    assert.deepEqual(binaryAgreement([]), { n: 0, table: { both: 0, firstOnly: 0, secondOnly: 0, neither: 0 }, exact: null, kappa: null, kappaNote: 'undefined: no items' });
  });
});
