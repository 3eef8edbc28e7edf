import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rngFor } from '../core/random.js';
import { bootstrapInterval, wilsonInterval } from './intervals.js';

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
