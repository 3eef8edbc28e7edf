import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pairedProportionDifference } from './paired-proportions.js';

/**
 * Newcombe (1998), Statistics in Medicine 17:2635–2650, worked examples for method 10: each row
 * is (e, f, g, h) — both positive, first only, second only, neither — and the 95% limits of
 * θ = p1 − p2 = (f − g)/n to 4 decimals. Transcribed from two secondary sources that quote the
 * paper's table of examples and agree with each other (the primary PDF was not at hand); the
 * Cavo example below comes from a third, independent implementation.
 */
const NEWCOMBE_METHOD_10: ReadonlyArray<readonly [e: number, f: number, g: number, h: number, low: number, high: number]> = [
  [36, 12, 2, 0, 0.0569, 0.3404],
  [20, 12, 2, 16, 0.0562, 0.3292],
  [18, 12, 2, 18, 0.0562, 0.329],
  [36, 14, 0, 0, 0.1528, 0.4167],
  [35, 14, 0, 1, 0.1461, 0.4175],
  [18, 14, 0, 18, 0.1441, 0.3963],
  [2, 97, 1, 0, 0.8721, 0.9854],
  [1, 97, 1, 1, 0.8736, 0.985],
  [0, 29, 1, 0, 0.6666, 0.9882],
  [2, 98, 0, 0, 0.9178, 0.9945],
  [1, 98, 0, 1, 0.9171, 0.9916],
  [0, 30, 0, 0, 0.8395, 1],
  [54, 0, 0, 0, -0.0664, 0.0664],
  [53, 0, 0, 1, -0.0729, 0.0729],
  [30, 0, 0, 24, -0.0358, 0.0358],
  [29, 0, 0, 25, -0.0354, 0.0354],
  [28, 0, 0, 26, -0.0352, 0.0352],
  [27, 0, 0, 27, -0.0351, 0.0351],
];

const within = (actual: number | undefined, expected: number, tolerance: number, what: string): void => {
  assert.ok(actual !== undefined && Math.abs(actual - expected) <= tolerance, `${what}: ${String(actual)} ≠ ${expected} (±${tolerance})`);
};

describe('pairedProportionDifference (Newcombe method 10)', () => {
  it("reproduces Newcombe's published method-10 limits to the 4th decimal", () => {
    for (const [e, f, g, h, low, high] of NEWCOMBE_METHOD_10) {
      // θ = p1 − p2 with p1 = (e + f)/n: "second" here is Newcombe's first proportion, so second − first = θ.
      const r = pairedProportionDifference({ both: e, secondOnly: f, firstOnly: g, neither: h });
      within(r.difference ?? undefined, (f - g) / (e + f + g + h), 1e-12, `θ of ${e}/${f}/${g}/${h}`);
      // One printed digit is off by one in the 4th decimal (1/97/1/1: 0.87367 printed 0.8736), so ±1e-4.
      within(r.interval?.low, low, 1e-4, `low of ${e}/${f}/${g}/${h}`);
      within(r.interval?.high, high, 1e-4, `high of ${e}/${f}/${g}/${h}`);
    }
  });

  it('Cavo et al. (2012) in Fagerland, Lydersen & Laake, ch. 8: 59/6/16/80 → −0.0621 (−0.1186 to −0.0046)', () => {
    // Rows: before, columns: after; p1 = 65/161, p2 = 75/161; θ = p1 − p2 = −10/161.
    const r = pairedProportionDifference({ both: 59, secondOnly: 6, firstOnly: 16, neither: 80 });
    within(r.difference ?? undefined, -10 / 161, 1e-12, 'θ');
    within(r.interval?.low, -0.1186, 5e-5, 'low');
    within(r.interval?.high, -0.0046, 5e-5, 'high');
  });

  it('by hand when phi is 0 (a margin is empty): the square-and-add of the two Wilson distances', () => {
    // 5 items pass both times, 5 pass only the first time: first = 1, second = 0.5, phi = 0.
    // Wilson(10/10) = [10/(10 + z²), 1]; Wilson(5/10) = 0.5 ± z·√(0.025 + z²/400)/(1 + z²/10).
    const z = 1.959963984540054;
    const z2 = z * z;
    const halfMargin = (z * Math.sqrt(0.025 + z2 / 400)) / (1 + z2 / 10);
    const firstLow = 10 / (10 + z2);
    const r = pairedProportionDifference({ both: 5, firstOnly: 5, secondOnly: 0, neither: 0 });
    assert.equal(r.first, 1);
    assert.equal(r.second, 0.5);
    within(r.interval?.low, -0.5 - halfMargin, 1e-12, 'low: −0.5 − (p2 − l2), p1 has no room above');
    within(r.interval?.high, -0.5 + Math.sqrt(halfMargin ** 2 + (1 - firstLow) ** 2), 1e-12, 'high');
  });

  it('swapping the runs mirrors the interval', () => {
    const ab = pairedProportionDifference({ both: 20, firstOnly: 3, secondOnly: 9, neither: 8 });
    const ba = pairedProportionDifference({ both: 20, firstOnly: 9, secondOnly: 3, neither: 8 });
    within(ab.interval?.low, -(ba.interval?.high ?? NaN), 1e-12, 'low = −high of the mirror');
    within(ab.interval?.high, -(ba.interval?.low ?? NaN), 1e-12, 'high = −low of the mirror');
  });

  it('is all null without items and refuses impossible counts', () => {
    assert.deepEqual(pairedProportionDifference({ both: 0, firstOnly: 0, secondOnly: 0, neither: 0 }), { n: 0, first: null, second: null, difference: null, interval: null });
    assert.throws(() => pairedProportionDifference({ both: -1, firstOnly: 0, secondOnly: 0, neither: 0 }), RangeError);
    assert.throws(() => pairedProportionDifference({ both: 1.5, firstOnly: 0, secondOnly: 0, neither: 0 }), RangeError);
  });
});
