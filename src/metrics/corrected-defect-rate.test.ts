import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rngFor } from '../core/random.js';
import { correctedDefectRate, labelsToHalveWidth, type JudgedItem } from './corrected-defect-rate.js';

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
    // Halving (labelsToHalveWidth): a = 0.212121, B = 0.5, M = 105, c = 0.10212121/4 = 0.02553030;
    // c·n′² − (c·105 + 0.5 − 0.212121)·n′ + 0.5·105 ≤ 0 → p = 2.968561, disc = p² − 4·c·52.5 =
    // 8.812353 − 5.361364 = 3.450989 → lower root (2.968561 − 1.857684)/0.0510606 = 21.76 → 22 labels.
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
    // variance 0.25 (not 0). Halving: M = 13, a = 0.177778, B = 0.25, c = (0.0177778 + 0.0833333)/4 =
    // 0.0252778; p = 0.0252778·13 + 0.25 − 0.177778 = 0.400833; p² − 4·c·0.25·13 = 0.160667 − 0.328611 < 0:
    // no real root — the least variance over any n′, (√a + √B)²/13 = 0.0698, is above c.
    const r = correctedDefectRate(items(2, 10, [[true, true], [false, false], [false, false]]));
    close(r.rate, 0.2, 'rate');
    close(r.interval?.high, 0.2 + 1.959963984540054 * Math.sqrt(0.16 / 9 + 0.25 / 3), 'high');
    assert.equal(r.labelsToHalve, null);
  });

  it('labels to halve, by hand: the labels come from the unlabelled items, whose term then grows', () => {
    // n = 10 labels of M = 200 judged items; a = s²_judge = 0.211111 (57 of 190: 57·133/(190·189)),
    // B = 0.173554 (error shares 1.5/11 and 0.5/11: 0.181818 − 0.0909091²). Now V = a/190 + B/10 =
    // 0.00111111 + 0.0173554 = 0.0184665; c = V/4 = 0.00461663. p = c·200 + B − a = 0.885769;
    // disc = p² − 4·c·B·200 = 0.784587 − 0.640993 = 0.143594, √ = 0.378938; lower root
    // (0.885769 − 0.378938)/(2c) = 54.89 → 55. Check: V(55) = a/145 + B/55 = 0.00461147 ≤ c;
    // V(54) = a/146 + B/54 = 0.00465993 > c. (Holding the judge term at a/190, as before, said
    // B/(c − a/190) = 49.5 → 50 labels, and V(50) = a/150 + B/50 = 0.0048782 > c: not halved.)
    const a = (57 * 133) / (190 * 189);
    const B = 2 / 11 - (1 / 11) ** 2;
    assert.equal(labelsToHalveWidth({ judgeVariance: a, labelVariance: B, labelled: 10, items: 200 }), 55);
    // The same through the estimator: 60 judge defects of 200, 10 labelled: judge-defect 3 (people: 3 defects),
    // judge-clean 7 (people: 1 defect).
    const labelled: [boolean, boolean][] = [[true, true], [true, true], [true, true], [false, true], ...Array<[boolean, boolean]>(6).fill([false, false])];
    const r = correctedDefectRate(items(57, 190, labelled));
    close(r.rate, 0.4, 'rate');
    close(r.interval?.low, 0.4 - 1.959963984540054 * Math.sqrt(a / 190 + B / 10), 'low');
    assert.equal(r.labelsToHalve, 55);
  });

  it('labels to halve: the closed form is the least n′ a search over every n′ finds', () => {
    const V = (a: number, B: number, M: number, k: number): number => a / (M - k) + B / k;
    let checked = 0, feasible = 0;
    for (const M of [20, 60, 200, 1000]) {
      for (const n of [2, 5, 10, 30, 100].filter((k) => k < M)) {
        for (const a of [0, 0.05, 0.16, 0.25]) {
          for (const B of [0.02, 0.1, 0.3, 0.6]) {
            const c = V(a, B, M, n) / 4;
            let expected: number | null = null;
            for (let k = n + 1; k < M; k++) {
              if (V(a, B, M, k) <= c) {
                expected = k;
                break;
              }
            }
            if (expected === null && a === 0 && B / M <= c) expected = M;
            const got = labelsToHalveWidth({ judgeVariance: a, labelVariance: B, labelled: n, items: M });
            assert.equal(got, expected, `M ${M}, n ${n}, a ${a}, B ${B}`);
            checked++;
            if (got !== null) feasible++;
          }
        }
      }
    }
    // Both outcomes occur in the grid (the test could fail either way).
    assert.ok(feasible > 20 && checked - feasible > 20, `${feasible} of ${checked} feasible`);
  });

  it('labels to halve without a judge term is four times the labels', () => {
    // a = 0: V = B/n′, a quarter of B/n at n′ = 4n.
    assert.equal(labelsToHalveWidth({ judgeVariance: 0, labelVariance: 0.3, labelled: 12, items: 1000 }), 48);
    assert.equal(labelsToHalveWidth({ judgeVariance: 0, labelVariance: 0.3, labelled: 12, items: 47 }), null);
  });

  it('against a known truth (a small run of npm run sim:corrected): the interval covers it near 95%, the judge alone does not', () => {
    // True rate 0.2; the judge calls a true defect a defect with probability 0.6 and a non-defect a
    // non-defect with 0.85 → its own rate is 0.2 · 0.6 + 0.8 · 0.15 = 0.24. 1,000 items, 100 of
    // them labelled at random (without error), 500 seeded replications: the share of intervals
    // holding 0.2 must be within 95% ± 3 points (≈ 3 standard errors of 500 draws); the judge's own
    // rate must average 0.24 ± 0.01 (so the correction has something to correct).
    const rng = rngFor(1, 'corrected-defect-rate.test');
    const reps = 500;
    let covered = 0, judgeSum = 0;
    for (let r = 0; r < reps; r++) {
      const labelled = new Set<number>();
      while (labelled.size < 100) labelled.add(rng.int(1000));
      const drawn: JudgedItem[] = [];
      for (let i = 0; i < 1000; i++) {
        const defect = rng.next() < 0.2;
        const judge = defect ? rng.next() < 0.6 : rng.next() >= 0.85;
        drawn.push(labelled.has(i) ? { judge, human: defect } : { judge });
      }
      const c = correctedDefectRate(drawn);
      judgeSum += c.judgeRate ?? NaN;
      if (c.interval && c.interval.low <= 0.2 && 0.2 <= c.interval.high) covered++;
    }
    assert.ok(Math.abs(covered / reps - 0.95) <= 0.03, `coverage ${covered / reps}`);
    assert.ok(Math.abs(judgeSum / reps - 0.24) <= 0.01, `judge rate ${judgeSum / reps}`);
  });
});
