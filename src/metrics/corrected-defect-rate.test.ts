import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { correctedDefectRate, type JudgedItem } from './corrected-defect-rate.js';

const close = (actual: number | null | undefined, expected: number, what: string): void => assert.ok(typeof actual === 'number' && Math.abs(actual - expected) < 1e-6, `${what}: ${actual} ≠ ${expected}`);
const items = (unlabelledDefects: number, unlabelled: number, labelled: readonly [boolean, boolean][]): JudgedItem[] => [
  ...Array.from({ length: unlabelled }, (_, i) => ({ judge: i < unlabelledDefects })),
  ...labelled.map(([judge, human]) => ({ judge, human })),
];

describe('correctedDefectRate (prediction-powered inference)', () => {
  it('by hand: a judge whose errors cancel on the labels keeps its rate; the interval carries both terms', () => {
    // Unlabelled: 30 defects of 100 → 0.3, s² = (100/99)(0.3 · 0.7) = 0.212121. Labelled (judge, person):
    // (T,T) (T,F) (F,F) (F,T) (F,F) → person − judge = 0, −1, 0, 1, 0: rectifier 0; error shares read
    // (1 + ½)/6 = 0.25 each → variance 0.25 + 0.25 − 0 = 0.5. θ = 0.3; variance 0.00212121 + 0.5/5 =
    // 0.10212121; half-width 1.959964 · 0.319564 = 0.626334. Judge's own rate over all 105: 32/105.
    // Halving: room = 0.10212121/4 − 0.00212121 = 0.0234091 → 0.5/0.0234091 = 21.4 → 22 labels.
    const r = correctedDefectRate(items(30, 100, [[true, true], [true, false], [false, false], [false, true], [false, false]]));
    close(r.judgeRate, 32 / 105, 'judge rate');
    close(r.rate, 0.3, 'rate');
    close(r.rectifier, 0, 'rectifier');
    close(r.interval?.low, 0, 'low (clamped)');
    close(r.interval?.high, 0.3 + 1.959963984540054 * Math.sqrt(0.21 / 99 + 0.1), 'high');
    assert.deepEqual([r.labelled, r.unlabelled, r.labelsToHalve], [5, 100, 22]);
  });

  it('by hand: a judge that over-calls defects is corrected down', () => {
    // Unlabelled 4 of 8 → 0.5, s² = (8/7)(0.25) = 2/7. Labelled (T,F) (T,T) (F,F) (T,F): −1, 0, 0, −1 →
    // rectifier −0.5; shares (0 + ½)/5 = 0.1 and (2 + ½)/5 = 0.5 → variance 0.6 − 0.16 = 0.44.
    // θ = 0; variance (2/7)/8 + 0.44/4 = 0.145714 → half-width 1.959964 · 0.381725.
    const r = correctedDefectRate(items(4, 8, [[true, false], [true, true], [false, false], [true, false]]));
    close(r.rectifier, -0.5, 'rectifier');
    close(r.rate, 0, 'rate');
    close(r.interval?.high, 1.959963984540054 * Math.sqrt(2 / 7 / 8 + 0.11), 'high');
    close(r.judgeRate, 7 / 12, 'judge rate');
  });

  it('fewer than two labels: no corrected rate; every item labelled: the people\'s own rate', () => {
    const one = correctedDefectRate(items(2, 5, [[true, true]]));
    assert.deepEqual([one.rate, one.interval, one.labelsToHalve], [null, null, null]);
    close(one.judgeRate, 3 / 6, 'judge rate');
    // All four labelled, people say 1 of 4: 0.25 ± z·√((1/4 · 3/4 · 4/3)/4) = ± z · 0.25.
    const all = correctedDefectRate(items(0, 0, [[true, true], [true, false], [false, false], [false, false]]));
    close(all.rate, 0.25, 'rate');
    close(all.interval?.high, 0.25 + 1.959963984540054 * 0.25, 'high');
  });

  it('three labels with no judge error still carry labelling uncertainty; halving that would need more labels than items: null', () => {
    // Unlabelled 2 of 10 → 0.2, s² = (10/9)(0.16) = 0.177778. Labels agree: shares ½/4 = 0.125 each →
    // variance 0.25 (not 0). Halving: room = (0.0177778 + 0.083333)/4 − 0.0177778 = 0.0075 → 0.25/0.0075 = 34 > 13 items.
    const r = correctedDefectRate(items(2, 10, [[true, true], [false, false], [false, false]]));
    close(r.rate, 0.2, 'rate');
    close(r.interval?.high, 0.2 + 1.959963984540054 * Math.sqrt(0.16 / 9 + 0.25 / 3), 'high');
    assert.equal(r.labelsToHalve, null);
  });
});
