import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mcnemarTest } from './mcnemar.js';

const close = (actual: number | null, expected: number, digits = 12): void => {
  assert.ok(actual !== null && Math.abs(actual - expected) < 10 ** -digits, `${String(actual)} ≠ ${expected}`);
};

describe('mcnemarTest', () => {
  it('b = 1, c = 5: p = 2·(C(6,0) + C(6,1))/2⁶ = 14/64; χ² = (4 − 1)²/6 = 1.5', () => {
    const t = mcnemarTest(1, 5);
    close(t.exactP, 14 / 64);
    close(t.chiSquare, 1.5);
  });

  it('Cavo et al. (discordant 6 and 16): p = 2·Σ₀⁶ C(22,i)/2²² = 13757/262144 ≈ 0.0525; χ² = 81/22', () => {
    // Σ₀⁶ C(22, i) = 1 + 22 + 231 + 1540 + 7315 + 26334 + 74613 = 110056.
    const t = mcnemarTest(6, 16);
    close(t.exactP, (2 * 110056) / 2 ** 22);
    close(t.chiSquare, 81 / 22);
    close(mcnemarTest(16, 6).exactP, t.exactP); // two-sided: symmetric
  });

  it('5 against 0: p = 2/2⁵ = 0.0625 (five changes all one way cannot reach 0.05)', () => {
    close(mcnemarTest(5, 0).exactP, 0.0625);
    close(mcnemarTest(5, 0).chiSquare, 16 / 5);
  });

  it('b = c: p = 1 (capped: twice a tail that holds the middle term exceeds 1) and χ² = 0', () => {
    assert.equal(mcnemarTest(3, 3).exactP, 1);
    assert.equal(mcnemarTest(3, 3).chiSquare, 0);
    assert.equal(mcnemarTest(1000, 1000).exactP, 1);
  });

  it('no discordant pair: p = 1 and no statistic', () => {
    assert.deepEqual(mcnemarTest(0, 0), { firstOnly: 0, secondOnly: 0, exactP: 1, chiSquare: null });
  });

  it('thousands of discordant pairs stay finite (½ⁿ would underflow): 1,000 vs 1,100', () => {
    const t = mcnemarTest(1000, 1100);
    assert.ok(Number.isFinite(t.exactP) && t.exactP > 0 && t.exactP < 0.05, String(t.exactP));
    // The normal approximation with continuity correction, z = 99/√2100 ≈ 2.160, gives p ≈ 0.0307.
    assert.ok(Math.abs(t.exactP - 0.0307) < 0.002, String(t.exactP));
    assert.equal(mcnemarTest(0, 2000).exactP, 0); // 2·2⁻²⁰⁰⁰ is below the smallest double
  });

  it('refuses counts that are not whole and non-negative', () => {
    assert.throws(() => mcnemarTest(-1, 2), RangeError);
    assert.throws(() => mcnemarTest(1.5, 2), RangeError);
  });
});
