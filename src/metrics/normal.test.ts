import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalCdf, normalQuantile, tQuantile } from './normal.js';

describe('standard normal', () => {
  it('known values: Φ(0) = ½, Φ(1.959964) = 0.975, Φ(−1) = 0.158655', () => {
    assert.ok(Math.abs(normalCdf(0) - 0.5) < 1e-7);
    assert.ok(Math.abs(normalCdf(1.959963984540054) - 0.975) < 1e-7);
    assert.ok(Math.abs(normalCdf(-1) - 0.15865525393145707) < 1e-7);
  });

  it('the quantile inverts the CDF; 0.975 → 1.959964, 0.3 → −0.524401; the ends are infinite', () => {
    assert.ok(Math.abs(normalQuantile(0.975) - 1.959963984540054) < 1e-8);
    assert.ok(Math.abs(normalQuantile(0.3) + 0.5244005127080407) < 1e-8);
    for (const p of [1e-6, 0.01, 0.02425, 0.2, 0.5, 0.9, 0.999]) assert.ok(Math.abs(normalCdf(normalQuantile(p)) - p) < 2e-7 * Math.max(1, p / 1e-3), String(p));
    assert.deepEqual([normalQuantile(0), normalQuantile(1)], [-Infinity, Infinity]);
    assert.ok(Number.isNaN(normalQuantile(1.5)));
  });

  it('t quantiles (tables): t₀.₉₇₅ with 5, 14, 29 degrees of freedom = 2.570582, 2.144787, 2.045230', () => {
    // Four Cornish–Fisher terms: off by 3e-4 at ν = 5, by less than 1e-5 from ν = 14 (the smallest n assay is measured at is 15).
    for (const [nu, t, tolerance] of [[5, 2.570582, 5e-4], [14, 2.144787, 1e-5], [29, 2.04523, 1e-5]] as const) assert.ok(Math.abs(tQuantile(0.975, nu) - t) < tolerance, `${nu}: ${tQuantile(0.975, nu)}`);
    assert.ok(Math.abs(tQuantile(0.025, 14) + 2.144787) < 2e-4, 'symmetric');
  });
});
