import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rngFor } from '../core/random.js';
import { bcaBounds, bcaInterval, bootstrapInterval, bootstrapMeanInterval, jackknifeAcceleration, wilsonInterval } from './intervals.js';

const close = (actual: number | undefined, expected: number, digits = 6): void => {
  assert.ok(actual !== undefined && Math.abs(actual - expected) < 10 ** -digits, `${String(actual)} ≠ ${expected}`);
};

describe('wilsonInterval', () => {
  it('8 of 10, by hand: p = 0.8, z² = 3.8415, denominator 1.38415; centre 0.716741, margin 0.226575', () => {
    // centre = (0.8 + z²/20) / (1 + z²/10); margin = z·√(0.8·0.2/10 + z²/400) / (1 + z²/10).
    const i = wilsonInterval(8, 10);
    close(i?.low, 0.490162, 5);
    close(i?.high, 0.943317, 5);
  });

  it('0 of 20 starts at exactly 0 and 20 of 20 ends at exactly 1; high(0/20) = z²/(n + z²)', () => {
    const z2 = 1.959963984540054 ** 2;
    const none = wilsonInterval(0, 20);
    assert.equal(none?.low, 0);
    close(none?.high, z2 / (20 + z2), 12);
    const all = wilsonInterval(20, 20);
    assert.equal(all?.high, 1);
    close(all?.low, 20 / (20 + z2), 12);
  });

  it('is null for n = 0 and refuses impossible counts', () => {
    assert.equal(wilsonInterval(0, 0), null);
    assert.throws(() => wilsonInterval(3, 2), RangeError);
    assert.throws(() => wilsonInterval(1.5, 4), RangeError);
  });
});

describe('bootstrapMeanInterval', () => {
  const mean = (xs: readonly number[]): number | null => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

  it('is bootstrapInterval of the mean to the last bit: the same draws, the same sums', () => {
    const numbers = rngFor(11, 'values');
    const cases: { values: number[]; resamples?: number; level?: number }[] = [
      { values: [0.5] },
      { values: [0, 1] },
      // Shares of k = 5 repeats, as repeat_pass_rate resamples them.
      { values: Array.from({ length: 397 }, () => numbers.int(6) / 5) },
      // Arbitrary floats, where a different summation order would show in the last bits.
      { values: Array.from({ length: 1000 }, () => (numbers.next() - 0.3) * 1e3 + numbers.next() * 1e-9), resamples: 500, level: 0.9 },
    ];
    for (const [i, { values, resamples, level }] of cases.entries()) {
      const options = { ...(resamples ? { resamples } : {}), ...(level ? { level } : {}) };
      const generic = bootstrapInterval(values, mean, { rng: rngFor(i, 'same'), ...options });
      assert.deepEqual(bootstrapMeanInterval(values, { rng: rngFor(i, 'same'), ...options }), generic, `case ${i}`);
    }
  });

  it('is null for no values, and skips resamples whose mean is not finite as bootstrapInterval does', () => {
    assert.equal(bootstrapMeanInterval([], { rng: rngFor(1, 'b') }), null);
    assert.equal(bootstrapMeanInterval([Number.NaN], { rng: rngFor(1, 'b') }), null);
    const values = [1, Number.POSITIVE_INFINITY, 0];
    assert.deepEqual(bootstrapMeanInterval(values, { rng: rngFor(2, 'b') }), bootstrapInterval(values, mean, { rng: rngFor(2, 'b') }));
  });
});

describe('bootstrapInterval', () => {
  const mean = (xs: readonly number[]): number | null => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

  it('two units 0 and 1: resample means are 0, ½, 1 with chances ¼, ½, ¼, so the 95% bounds are 0 and 1', () => {
    const i = bootstrapInterval([0, 1], mean, { rng: rngFor(1, 'boot') });
    assert.deepEqual(i, { low: 0, high: 1 });
  });

  it('identical units give a zero-width interval at their value; the same seed gives the same interval', () => {
    assert.deepEqual(bootstrapInterval([0.5, 0.5, 0.5], mean, { rng: rngFor(1, 'boot') }), { low: 0.5, high: 0.5 });
    const units = [0, 0, 1, 1, 1, 0.5, 0.25, 1, 0, 1];
    const a = bootstrapInterval(units, mean, { rng: rngFor(7, 'x') });
    assert.deepEqual(a, bootstrapInterval(units, mean, { rng: rngFor(7, 'x') }));
    assert.ok(a && a.low <= 0.575 && 0.575 <= a.high && a.low < a.high);
  });

  it('skips resamples where the statistic is undefined, and is null when none has a value or there are no units', () => {
    const claimsPerSummary = [[], [1, 0]] as const; // one summary without claims, one with a yes and a no
    const share = (draw: readonly (readonly number[])[]): number | null => {
      const claims = draw.flat();
      return claims.length === 0 ? null : claims.reduce((a, b) => a + b, 0) / claims.length;
    };
    // Every resample with at least one of the second summary has share ½; resamples of only the empty one are skipped.
    assert.deepEqual(bootstrapInterval(claimsPerSummary, share, { rng: rngFor(3, 'b') }), { low: 0.5, high: 0.5 });
    assert.equal(bootstrapInterval([[]], share, { rng: rngFor(3, 'b') }), null);
    assert.equal(bootstrapInterval([], mean, { rng: rngFor(3, 'b') }), null);
  });
});

describe('BCa interval', () => {
  const oneToHundred = Array.from({ length: 100 }, (_, i) => i + 1);

  it('no bias, no acceleration: the percentile interval (ranks 3 and 98 of 1…100)', () => {
    // Estimate 50.5: 50 of 100 values below → z₀ = Φ⁻¹(0.5) = 0; a = 0 → the 2.5% and 97.5% quantiles: ⌈2.5⌉ = 3rd, ⌈97.5⌉ = 98th.
    assert.deepEqual(bcaBounds(50.5, oneToHundred, 0), { low: 3, high: 98 });
  });

  it('by hand: estimate 30.5 (30 values below) moves both bounds down; acceleration 0.1 widens the top', () => {
    // z₀ = Φ⁻¹(0.3) = −0.524401. Low: Φ(z₀ + (z₀ − 1.959964)) = Φ(−3.008765) = 0.001312 → rank ⌈0.13⌉ = 1st.
    // High: Φ(z₀ + (z₀ + 1.959964)) = Φ(0.911163) = 0.818895 → ⌈81.9⌉ = 82nd.
    assert.deepEqual(bcaBounds(30.5, oneToHundred, 0), { low: 1, high: 82 });
    // a = 0.1: high Φ(z₀ + 1.435564/(1 − 0.1435564)) = 0.875296 → 88th; low Φ(z₀ − 2.484365/1.2484365) = 0.005962 → 1st.
    assert.deepEqual(bcaBounds(30.5, oneToHundred, 0.1), { low: 1, high: 88 });
  });

  it('expanded for n = 15 units: z_q becomes √(15/14)·t₀.₉₇₅,₁₄ = 2.220065, so ranks 2 and 99 of 1…100', () => {
    // Φ(−2.220065) = 0.013207 → ⌈1.32⌉ = 2nd; Φ(2.220065) = 0.986793 → ⌈98.68⌉ = 99th (unexpanded: 3rd and 98th).
    assert.deepEqual(bcaBounds(50.5, oneToHundred, 0, 0.95, 15), { low: 2, high: 99 });
  });

  it('jackknife acceleration of the mean of [0, 0, 0, 3] = 0.375 / (6 · 0.75^1.5) ≈ 0.096225', () => {
    // Leave-one-out means 1, 1, 1, 0; their mean 0.75; deviations −0.25 ×3, 0.75: Σd² = 0.75, Σd³ = 0.375.
    const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
    assert.ok(Math.abs(jackknifeAcceleration([0, 0, 0, 3], mean) - 0.375 / (6 * Math.pow(0.75, 1.5))) < 1e-12);
    assert.equal(jackknifeAcceleration([2, 2, 2], mean), 0, 'no spread, no acceleration');
  });

  it('bcaInterval: reproducible with its rng, holds the estimate; null without units or without a defined estimate', () => {
    const data = [1, 3, 3, 4, 7, 8, 8, 9, 12, 20];
    const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
    const one = bcaInterval(data, mean, { rng: rngFor(3, 'bca'), resamples: 500 });
    assert.deepEqual(one, bcaInterval(data, mean, { rng: rngFor(3, 'bca'), resamples: 500 }));
    assert.ok(one && one.low <= 7.5 && 7.5 <= one.high, JSON.stringify(one));
    assert.equal(bcaInterval([], mean, { rng: rngFor(3, 'bca') }), null);
    assert.equal(bcaInterval(data, () => null, { rng: rngFor(3, 'bca') }), null);
  });
});
