import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { wilsonInterval } from '../metrics/intervals.js';
import { decideThreshold } from './threshold.js';

describe('decideThreshold', () => {
  // 48 of 50 passed: 0.96. Wilson by hand (z = 1.96): centre (0.96 + 3.8415/100)/(1 + 3.8415/50)
  // = 0.92718, half-width 1.96·√(0.96·0.04/50 + 3.8415/10⁴)/1.07683 = 0.06178 → [0.8654, 0.9890].
  const interval = wilsonInterval(48, 50);

  it('the hand-computed Wilson interval of 48/50', () => {
    assert.ok(interval);
    assert.ok(Math.abs(interval.low - 0.8654) < 5e-4 && Math.abs(interval.high - 0.989) < 5e-4, JSON.stringify(interval));
  });

  it('min decides on the point: 0.96 ≥ 0.95 passes, and says the interval straddles 0.95', () => {
    const d = decideThreshold(0.96, interval, { min: 0.95 }, 'share');
    assert.equal(d.outcome, 'pass');
    assert.equal(d.relation, 'straddles');
    assert.equal(d.reason, '96.0% meets min 95.0%; 95% interval [86.5%, 98.9%] straddles it');
  });

  it('require: confident — the same point with a straddling interval is inconclusive, never a pass', () => {
    const d = decideThreshold(0.96, interval, { min: 0.95, require: 'confident' }, 'share');
    assert.equal(d.outcome, 'inconclusive');
    assert.equal(d.reason, '96.0% meets min 95.0% but the 95% interval [86.5%, 98.9%] straddles it (require: confident)');
  });

  it('require: confident passes when the whole interval clears the threshold (bound inclusive)', () => {
    assert.deepEqual(decideThreshold(0.97, { low: 0.95, high: 0.99 }, { min: 0.95, require: 'confident' }).outcome, 'pass');
    assert.deepEqual(decideThreshold(0.97, { low: 0.95, high: 0.99 }, { min: 0.95, require: 'confident' }).relation, 'clears');
  });

  it('a point that misses fails, with or without confident, and says where the interval lies', () => {
    const straddling = decideThreshold(0.94, { low: 0.9, high: 0.97 }, { min: 0.95, require: 'confident' });
    assert.deepEqual([straddling.outcome, straddling.relation], ['fail', 'straddles']);
    const below = decideThreshold(0.8, { low: 0.7, high: 0.9 }, { min: 0.95 });
    assert.deepEqual([below.outcome, below.relation], ['fail', 'misses']);
  });

  it('the threshold itself passes (inclusive)', () => {
    assert.equal(decideThreshold(0.95, null, { min: 0.95 }).outcome, 'pass');
    assert.equal(decideThreshold(0.05, null, { max: 0.05 }).outcome, 'pass');
  });

  it('max: a defect rate of 2% [0.5%, 7%] under max 5% passes, straddling; confident makes it inconclusive', () => {
    assert.deepEqual(decideThreshold(0.02, { low: 0.005, high: 0.07 }, { max: 0.05 }).outcome, 'pass');
    assert.deepEqual(decideThreshold(0.02, { low: 0.005, high: 0.07 }, { max: 0.05, require: 'confident' }).outcome, 'inconclusive');
    assert.deepEqual(decideThreshold(0.06, { low: 0.055, high: 0.07 }, { max: 0.05 }).relation, 'misses');
  });

  it('a band: inside on the point, the interval across the lower edge', () => {
    const d = decideThreshold(0.7, { low: 0.4, high: 0.8 }, { min: 0.5, max: 0.9 });
    assert.deepEqual([d.outcome, d.relation], ['pass', 'straddles']);
    assert.deepEqual(decideThreshold(0.95, { low: 0.92, high: 0.97 }, { min: 0.5, max: 0.9 }).relation, 'misses');
  });

  it('no value is inconclusive, never pass or fail; no interval under confident is inconclusive too', () => {
    assert.equal(decideThreshold(null, null, { min: 0.5 }).outcome, 'inconclusive');
    assert.equal(decideThreshold(Number.NaN, null, { max: 0.5 }).outcome, 'inconclusive');
    const noInterval = decideThreshold(0.99, null, { min: 0.5, require: 'confident' });
    assert.deepEqual([noInterval.outcome, noInterval.relation], ['inconclusive', 'none']);
    assert.match(noInterval.reason, /there is no interval to be confident with/);
    assert.deepEqual(decideThreshold(0.99, null, { min: 0.5 }).outcome, 'pass');
  });
});
