import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rngFor } from '../core/random.js';
import { signFlipTest } from './sign-flip.js';

const rng = (label = 'test'): ReturnType<typeof rngFor> => rngFor('sign-flip-test', label);

/** The exact two-sided p of integer differences, by counting subset sums (an independent reference). */
function exactByCounting(differences: readonly number[]): number {
  const magnitudes = differences.filter((d) => d !== 0).map(Math.abs);
  const total = magnitudes.reduce((a, b) => a + b, 0);
  const observed = Math.abs(differences.reduce((a, b) => a + b, 0));
  // ways[s]: sign assignments whose negated magnitudes sum to s; the signed sum is total − 2s.
  let ways = [1];
  for (const m of magnitudes) {
    const next = new Array<number>(ways.length + m).fill(0);
    ways.forEach((w, s) => {
      next[s] = (next[s] ?? 0) + w;
      next[s + m] = (next[s + m] ?? 0) + w;
    });
    ways = next;
  }
  const hits = ways.reduce((sum, w, s) => sum + (Math.abs(total - 2 * s) >= observed ? w : 0), 0);
  return hits / 2 ** magnitudes.length;
}

describe('signFlipTest', () => {
  it('1, 2, 3 by hand: the 8 signed sums are ±6, ±4, ±2, 0, 0; |sum| ≥ 6 twice → p = 2/8', () => {
    assert.deepEqual(signFlipTest([1, 2, 3], { rng: rng() }), { p: 0.25, exact: true, resamples: null });
    assert.equal(signFlipTest([-1, -2, -3], { rng: rng() }).p, 0.25);
  });

  it('zero differences are dropped: 1, 2, 3, 0, 0 gives the same 2/8', () => {
    assert.equal(signFlipTest([1, 0, 2, 0, 3], { rng: rng() }).p, 0.25);
  });

  it('2, 2, 2, 2: |sum| = 8 only for all plus or all minus → 2/16', () => {
    assert.equal(signFlipTest([2, 2, 2, 2], { rng: rng() }).p, 0.125);
  });

  it('a tie in floating point counts: 0.1, 0.2, −0.3 sums to ~0, so every assignment is as far → p = 1', () => {
    assert.equal(signFlipTest([0.1, 0.2, -0.3], { rng: rng() }).p, 1);
  });

  it('nothing changed → p = 1; no pairs → no p', () => {
    assert.deepEqual(signFlipTest([0, 0, 0], { rng: rng() }), { p: 1, exact: true, resamples: null });
    assert.deepEqual(signFlipTest([], { rng: rng() }), { p: null, exact: true, resamples: null });
  });

  it('exact up to 16 changed items agrees with counting subset sums', () => {
    const differences = [3, -1, 4, 1, -5, 9, 2, -6, 5, 3, 5, -8, 9, 7, 9, 3];
    const t = signFlipTest(differences, { rng: rng() });
    assert.equal(t.exact, true);
    assert.equal(t.p, exactByCounting(differences));
  });

  it('beyond 16, a seeded Monte Carlo estimate within 4 standard errors of the exact p, reproducible', () => {
    const differences = Array.from({ length: 40 }, (_, i) => ((i * 7) % 11) - 4); // 40 integers in −4…6, mean ≈ 0.7
    const exact = exactByCounting(differences);
    assert.ok(exact > 0.05 && exact < 0.95, `a p-value in the middle tests the estimate best (${exact})`);
    const t = signFlipTest(differences, { rng: rng('mc') });
    assert.equal(t.exact, false);
    assert.equal(t.resamples, 10_000);
    const se = Math.sqrt((exact * (1 - exact)) / 10_000);
    assert.ok(Math.abs((t.p as number) - exact) < 4 * se + 1e-4, `${String(t.p)} vs exact ${exact}`);
    assert.deepEqual(signFlipTest(differences, { rng: rng('mc') }), t, 'same seed, same p');
  });

  it('a Monte Carlo p is never 0: 20 equal gains give (1 + 0)/(1 + R)', () => {
    const t = signFlipTest(new Array<number>(20).fill(1), { rng: rng(), resamples: 999 });
    // The only assignments as extreme are all-plus and all-minus: 2 of 2²⁰, almost never drawn.
    assert.equal(t.p, 1 / 1000);
  });
});
