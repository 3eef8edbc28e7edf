import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { faultPlan, plannedFault } from './fault-plan.js';

const keys = Array.from({ length: 4000 }, (_, i) => `sample ${i}`);

describe('faultPlan', () => {
  it('faults only first attempts, the same keys for the same seed', () => {
    const plan = faultPlan({ rate429: 0.2, rate500: 0.1, rateHang: 0.05, seed: 1 });
    const again = faultPlan({ rate429: 0.2, rate500: 0.1, rateHang: 0.05, seed: 1 });
    for (const key of keys.slice(0, 200)) {
      assert.deepEqual(plan({ key, attemptForKey: 1, index: 0 }), again({ key, attemptForKey: 1, index: 99 }));
      assert.equal(plan({ key, attemptForKey: 2, index: 0 }), undefined);
    }
  });

  it('hits about the requested share of keys with each fault', () => {
    const counts = { 429: 0, 500: 0, hang: 0, none: 0 };
    for (const key of keys) {
      const fault = plannedFault({ rate429: 0.2, rate500: 0.1, rateHang: 0.05, seed: 'x' }, key);
      if (!fault) counts.none++;
      else if (fault.type === 'hang') counts.hang++;
      else if (fault.type === 'status' && fault.status === 429) counts[429]++;
      else if (fault.type === 'status' && fault.status === 500) counts[500]++;
      else assert.fail(`unexpected fault ${JSON.stringify(fault)}`);
    }
    // Binomial(4000, p): 4 standard deviations is under 0.03 for these p.
    assert.ok(Math.abs(counts[429] / 4000 - 0.2) < 0.03, JSON.stringify(counts));
    assert.ok(Math.abs(counts[500] / 4000 - 0.1) < 0.02, JSON.stringify(counts));
    assert.ok(Math.abs(counts.hang / 4000 - 0.05) < 0.015, JSON.stringify(counts));
  });

  it('gives a different subset for a different seed', () => {
    const hit = (seed: number): string[] => keys.filter((key) => plannedFault({ rate500: 0.5, seed }, key) !== undefined);
    assert.notDeepEqual(hit(1), hit(2));
  });

  it('adds retry-after-ms to planned 429s when asked', () => {
    assert.deepEqual(plannedFault({ rate429: 1, retryAfterMs: 10 }, 'k'), { type: 'status', status: 429, retryAfterMs: 10 });
    assert.deepEqual(plannedFault({ rateReset: 1 }, 'k'), { type: 'reset' });
    assert.deepEqual(plannedFault({ rateBadJson: 1 }, 'k'), { type: 'bad-json' });
    assert.equal(plannedFault({}, 'k'), undefined);
  });

  it('rejects rates that do not make sense', () => {
    assert.throws(() => faultPlan({ rate429: 0.7, rate500: 0.4 }), RangeError);
    assert.throws(() => faultPlan({ rateHang: -0.1 }), RangeError);
  });
});
