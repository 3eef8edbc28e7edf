/**
 * `npm run sim:kappa`: how often the kappa interval `assay agreement` and the harm summary report
 * (expanded BCa, `metrics/agreement.ts` `kappaInterval`) covers the true quadratic-weighted kappa,
 * next to plain BCa and the percentile bootstrap it replaced, at n = 15, 30 and 100 pairs. Each scenario is a
 * known joint distribution of two raters on a 1–5 scale (its kappa computed exactly from the
 * probabilities); each replication draws n pairs from it and asks whether each interval holds
 * the true kappa. A sample on which kappa has no value (a rater at one level) gets no interval and
 * is counted apart, outside the coverage. `ASSAY_SIM_REPS` replications per cell (default 1,000;
 * the Monte Carlo standard error of a coverage near 95% is then about 0.7 points);
 * `ASSAY_SIM_SIZES` and `ASSAY_SIM_SCENARIOS` (1-based) pick cells.
 */
import { rngFor, type Rng } from '../core/random.js';
import { kappaInterval } from '../metrics/agreement.js';
import { bootstrapInterval } from '../metrics/intervals.js';
import { confusionMatrix, quadraticWeightedKappa } from '../metrics/weighted-kappa.js';

const SCALE = { min: 1, max: 5 };
const LEVELS = [1, 2, 3, 4, 5];

interface Scenario {
  readonly name: string;
  /** P(first rater = i, second rater = j), rows and columns levels 1–5. */
  readonly joint: readonly (readonly number[])[];
}

/**
 * A judge against a human: the human's levels have `marginal`; the judge gives the same level with
 * `exact`, a neighbouring one (split evenly, all of it to the one neighbour at an end) with
 * `near`, and otherwise any farther level evenly.
 */
function judgeAgainstHuman(name: string, marginal: readonly number[], exact: number, near: number): Scenario {
  const joint = LEVELS.map(() => LEVELS.map(() => 0));
  LEVELS.forEach((_, h) => {
    const neighbours = LEVELS.map((_, j) => j).filter((j) => Math.abs(j - h) === 1);
    const far = LEVELS.map((_, j) => j).filter((j) => Math.abs(j - h) > 1);
    const p = marginal[h] as number;
    (joint[h] as number[])[h] = p * exact;
    for (const j of neighbours) (joint[j] as number[])[h] = p * (near / neighbours.length);
    for (const j of far) (joint[j] as number[])[h] = p * ((1 - exact - near) / far.length);
  });
  return { name, joint };
}

const SCENARIOS: readonly Scenario[] = [
  // The seed's study read: exact 60%, within ±1 80.5% (rai-harm-measurement-framework, Table 1).
  judgeAgainstHuman('seed-like: exact 60%, ±1 80.5%', [0.1, 0.15, 0.2, 0.25, 0.3], 0.6, 0.205),
  // A close judge: exact 85%, ±1 97% — kappa near 1, where its distribution is most skewed.
  judgeAgainstHuman('close judge: exact 85%, ±1 97%', [0.1, 0.15, 0.2, 0.25, 0.3], 0.85, 0.12),
  // A skewed scale (most items harmless, as in harm measurement): exact 70%, ±1 90%.
  judgeAgainstHuman('skewed levels: exact 70%, ±1 90%', [0.55, 0.2, 0.1, 0.1, 0.05], 0.7, 0.2),
];

function drawPairs(joint: readonly (readonly number[])[], n: number, rng: Rng): [number, number][] {
  const cells: { pair: [number, number]; cumulative: number }[] = [];
  let total = 0;
  joint.forEach((row, i) => row.forEach((p, j) => {
    total += p;
    cells.push({ pair: [i + 1, j + 1], cumulative: total });
  }));
  return Array.from({ length: n }, () => {
    const u = rng.next() * total;
    return (cells.find((c) => u < c.cumulative) ?? cells[cells.length - 1])!.pair;
  });
}

interface Cell {
  readonly covered: number;
  readonly withInterval: number;
  readonly none: number;
  readonly meanWidth: number;
}

type Method = 'bca' | 'expanded' | 'percentile';

function coverage(scenario: Scenario, n: number, reps: number, which: Method, truth: number): Cell {
  const rng = rngFor(`${scenario.name}:${n}`, 'kappa-coverage-draws');
  let covered = 0;
  let withInterval = 0;
  let widths = 0;
  const kappaOf = (sample: readonly (readonly [number, number])[]): number | null => quadraticWeightedKappa(confusionMatrix(sample, SCALE)).kappa;
  for (let r = 0; r < reps; r++) {
    const pairs = drawPairs(scenario.joint, n, rng);
    if (kappaOf(pairs) === null) continue;
    const interval =
      which === 'percentile' ? bootstrapInterval(pairs, kappaOf, { rng: rngFor(r, `percentile:${scenario.name}:${n}`) }) : kappaInterval(pairs, SCALE, undefined, which === 'expanded');
    if (!interval) continue;
    withInterval++;
    widths += interval.high - interval.low;
    if (interval.low <= truth && truth <= interval.high) covered++;
  }
  return { covered, withInterval, none: reps - withInterval, meanWidth: withInterval === 0 ? Number.NaN : widths / withInterval };
}

function main(): void {
  const reps = Number(process.env['ASSAY_SIM_REPS'] ?? 1000);
  const sizes = (process.env['ASSAY_SIM_SIZES'] ?? '15,30,100').split(',').map(Number);
  const only = process.env['ASSAY_SIM_SCENARIOS']?.split(',').map(Number);
  console.log(`kappa interval coverage: ${reps} replications per cell, 2,000 resamples per interval, nominal 95%`);
  console.log('| scenario | true κ | n | expanded BCa (assay) | its mean width | BCa | its mean width | percentile | its mean width | samples without κ |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const [i, scenario] of SCENARIOS.entries()) {
    if (only && !only.includes(i + 1)) continue;
    const truth = quadraticWeightedKappa({ levels: LEVELS, counts: scenario.joint }).kappa as number;
    for (const n of sizes) {
      const cells = (['expanded', 'bca', 'percentile'] as const).map((m) => coverage(scenario, n, reps, m, truth));
      const pct = (c: Cell): string => `${((100 * c.covered) / c.withInterval).toFixed(1)}%`;
      console.log(`| ${scenario.name} | ${truth.toFixed(3)} | ${n} | ${cells.map((c) => `${pct(c)} | ${c.meanWidth.toFixed(3)}`).join(' | ')} | ${cells[0]?.none} |`);
    }
  }
}

main();
