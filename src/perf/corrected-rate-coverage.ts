/**
 * `npm run sim:corrected`: the corrected defect rate (`metrics/corrected-defect-rate.ts`, PPI)
 * against a known truth. Each replication draws N items, each a true defect with probability π;
 * a judge with known sensitivity (calls a true defect a defect) and specificity (calls a
 * non-defect a non-defect) calls them all; a person labels a random n of them without error. The
 * table gives how often the 95% interval holds π (nominal 95%), its mean width, the labels the
 * estimator says would halve it and — labelling that many at random in the same replication —
 * the median ratio of the new half-width to the old (the plan works when it is about 0.5), and how
 * often the judge's own Wilson interval holds π (the uncorrected figure: biased by the judge's
 * errors). `ASSAY_SIM_REPS` (default 2,000).
 */
import { rngFor } from '../core/random.js';
import { correctedDefectRate, type JudgedItem } from '../metrics/corrected-defect-rate.js';
import { wilsonInterval } from '../metrics/intervals.js';
import { median } from '../metrics/median.js';

interface Setting {
  readonly truth: number;
  readonly sensitivity: number;
  readonly specificity: number;
  readonly items: number;
  readonly labels: number;
}

function main(): void {
  const reps = Number(process.env['ASSAY_SIM_REPS'] ?? 2000);
  const settings: Setting[] = [];
  for (const truth of [0.05, 0.2]) for (const [sensitivity, specificity] of [[0.8, 0.95], [0.6, 0.85]] as const) for (const labels of [30, 100, 300]) settings.push({ truth, sensitivity, specificity, items: 1000, labels });
  console.log(`corrected defect rate (PPI): ${reps} replications per row, N = 1,000 judged items, n of them labelled at random, nominal 95%`);
  console.log('| true rate | judge sensitivity / specificity | labels n | PPI coverage | mean width | mean labels to halve (share of replications with a figure) | half-width after labelling that many / before (median) | judge-only rate (mean) | judge-only Wilson coverage |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const s of settings) {
    const rng = rngFor(JSON.stringify(s), 'corrected-rate-coverage');
    let covered = 0, widths = 0, withInterval = 0, judgeCovered = 0, judgeRates = 0, halve = 0, halveCount = 0;
    const ratios: number[] = [];
    for (let r = 0; r < reps; r++) {
      const labelled = new Set<number>();
      while (labelled.size < s.labels) labelled.add(rng.int(s.items));
      const truths: { defect: boolean; judge: boolean }[] = [];
      let judgeDefects = 0;
      for (let i = 0; i < s.items; i++) {
        const defect = rng.next() < s.truth;
        const judge = defect ? rng.next() < s.sensitivity : rng.next() >= s.specificity;
        if (judge) judgeDefects++;
        truths.push({ defect, judge });
      }
      const itemsWith = (labels: ReadonlySet<number>): JudgedItem[] => truths.map((t, i) => (labels.has(i) ? { judge: t.judge, human: t.defect } : { judge: t.judge }));
      const c = correctedDefectRate(itemsWith(labelled));
      if (c.interval) {
        withInterval++;
        widths += c.interval.high - c.interval.low;
        if (c.interval.low <= s.truth && s.truth <= c.interval.high) covered++;
      }
      if (c.labelsToHalve !== null) {
        halve += c.labelsToHalve;
        halveCount++;
        // Follow the plan: label more items, at random among those not labelled, up to the figure.
        const more = new Set(labelled);
        while (more.size < c.labelsToHalve) more.add(rng.int(s.items));
        const after = correctedDefectRate(itemsWith(more));
        // Half-widths read above the estimate (the interval is clamped at 0, rarely at 1 here).
        if (c.interval && c.rate !== null && after.interval && after.rate !== null && c.interval.high < 1 && after.interval.high < 1) ratios.push((after.interval.high - after.rate) / (c.interval.high - c.rate));
      }
      judgeRates += judgeDefects / s.items;
      const w = wilsonInterval(judgeDefects, s.items);
      if (w && w.low <= s.truth && s.truth <= w.high) judgeCovered++;
    }
    const pct = (k: number, of: number): string => `${((100 * k) / of).toFixed(1)}%`;
    console.log(
      `| ${s.truth} | ${s.sensitivity} / ${s.specificity} | ${s.labels} | ${pct(covered, withInterval)} | ${(widths / withInterval).toFixed(3)} | ${halveCount ? `${Math.round(halve / halveCount)} (${pct(halveCount, reps)})` : '—'} | ${ratios.length ? median(ratios).toFixed(3) : '—'} | ${(judgeRates / reps).toFixed(3)} | ${pct(judgeCovered, reps)} |`,
    );
  }
}

main();
