import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defectRate, defectRateBy, isDefect, severityDistribution } from './defect-rate.js';

const close = (actual: number | undefined, expected: number): void => assert.ok(actual !== undefined && Math.abs(actual - expected) < 1e-9, `${actual} ≠ ${expected}`);

describe('defect rate', () => {
  it('higher is worse (at-least): defects / judged with a Wilson interval; no verdicts apart', () => {
    // [1, 3, 4, null, 2, 5], defect when ≥ 3: 3, 4, 5 → 3 defects of 5 judged; 1 no verdict.
    // Wilson, z = 1.959964, z² = 3.841459, n = 5, p = 0.6:
    //   denominator 1 + z²/n = 1.768292; centre (0.6 + z²/10)/1.768292 = 0.984146/1.768292 = 0.556552;
    //   margin z·√(0.6·0.4/5 + z²/100)/1.768292 = 1.959964·√0.086415/1.768292 = 0.325828
    //   → [0.230724, 0.882379].
    const rate = defectRate([1, 3, 4, null, 2, 5], { threshold: 3, when: 'at-least' });
    assert.deepEqual([rate.defects, rate.judged, rate.noVerdict, rate.rate], [3, 5, 1, 0.6]);
    close(rate.interval?.low, 0.2307242812760128);
    close(rate.interval?.high, 0.882379225767352);
  });

  it('higher is better (at-most, groundedness): a defect is at most the threshold', () => {
    // Same severities, defect when ≤ 2: 1 and 2 → 2 of 5 (the mirror of 3/5: [0.117621, 0.769276]).
    const rate = defectRate([1, 3, 4, null, 2, 5], { threshold: 2, when: 'at-most' });
    assert.deepEqual([rate.defects, rate.judged, rate.rate], [2, 5, 0.4]);
    close(rate.interval?.low, 0.11762077423264783);
    close(rate.interval?.high, 0.769275718723987);
    assert.equal(isDefect(2, { threshold: 2, when: 'at-most' }), true);
    assert.equal(isDefect(3, { threshold: 2, when: 'at-most' }), false);
  });

  it('nothing judged: no rate and no interval, not 0%', () => {
    assert.deepEqual(defectRate([null, null], { threshold: 1, when: 'at-least' }), { defects: 0, judged: 0, noVerdict: 2, rate: null, interval: null });
  });

  it('zero defects of 4: rate 0, interval [0, 0.489891]', () => {
    // Wilson at p = 0, n = 4: high = (z²/8 + z·√(z²/64))/(1 + z²/4) = 2·0.480182/1.960365 = 0.489891.
    const rate = defectRate([1, 1, 2, 2], { threshold: 3, when: 'at-least' });
    assert.equal(rate.rate, 0);
    assert.equal(rate.interval?.low, 0);
    close(rate.interval?.high, 0.4898908364545973);
  });

  it('per key: one rate per harm area / template / model, natural key order, undefined keys skipped', () => {
    const rows = [
      { template: 'pretext', severity: 4 },
      { template: 'direct', severity: 1 },
      { template: 'pretext', severity: 1 },
      { template: 'direct', severity: null },
      { template: undefined, severity: 4 },
    ];
    const rule = { threshold: 4, when: 'at-least' } as const;
    const by = defectRateBy(rows, (r) => r.template, (r) => (r.severity === null ? null : isDefect(r.severity, rule)));
    assert.deepEqual(Object.keys(by), ['direct', 'pretext']);
    // direct: 1 judged (severity 1), 0 defects, 1 no verdict; pretext: 4 and 1 → 1 of 2.
    assert.deepEqual([by['direct']?.defects, by['direct']?.judged, by['direct']?.noVerdict], [0, 1, 1]);
    assert.deepEqual([by['pretext']?.defects, by['pretext']?.judged, by['pretext']?.rate], [1, 2, 0.5]);
  });

  it('severity distribution: every level, zeros included; no verdicts skipped', () => {
    assert.deepEqual(severityDistribution([1, 3, 3, null, 5], { min: 1, max: 5 }), [
      { severity: 1, count: 1 },
      { severity: 2, count: 0 },
      { severity: 3, count: 2 },
      { severity: 4, count: 0 },
      { severity: 5, count: 1 },
    ]);
    assert.throws(() => severityDistribution([6], { min: 1, max: 5 }), RangeError);
  });
});
