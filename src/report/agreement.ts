import { visibleControls } from '../core/index.js';
import type { CorrectedDefectRate } from '../metrics/corrected-defect-rate.js';
import type { RunAgreement } from '../analysis/agreement.js';
import { correctedRateLine } from './corrected-rate.js';

const share = (v: number | null): string => (v === null ? '—' : v.toFixed(3));
const percent = (v: number): string => `${(100 * v).toFixed(1)}%`;

/** The judge's defect rate and the rate corrected for its measured error, side by side. */
function correctedLines(c: CorrectedDefectRate): string[] {
  const raw = `    defect rate: judge ${c.judgeRate === null ? '—' : percent(c.judgeRate)} over ${c.labelled + c.unlabelled} judged`;
  if (c.rate === null || c.interval === null) return [`${raw}; corrected: — (needs at least 2 labelled items the judge rated, has ${c.labelled})`];
  const halve = c.labelsToHalve === null ? 'labels alone cannot halve the interval here' : `about ${c.labelsToHalve} labels in all would halve the interval`;
  return [
    `${raw}; corrected for the judge's error ${percent(c.rate)} [${percent(c.interval.low)}, ${percent(c.interval.high)}] (PPI: ${c.unlabelled} unlabelled + ${c.labelled} labelled, taken as a random subset; ${halve})`,
  ];
}

/** The console form of `assay agreement`: per model, each comparison's figures and its confusion matrix. */
export function renderAgreement(report: RunAgreement): string {
  // Lines holding stored names (run, task, models, raters) are one line each, whatever those hold.
  const lines = [visibleControls(`agreement for run ${report.run} (${report.task}), severity scale ${report.scale.min}–${report.scale.max}`)];
  for (const [model, reports] of Object.entries(report.models)) {
    lines.push(visibleControls(`${model}:`));
    const byReviews = report.reviewed?.[model];
    if (reports.length === 0 && !byReviews) lines.push('  nothing to compare: give --labels <file.csv> or --with <run>, or run the judge with --judge-repeats ≥ 2');
    for (const { between, agreement: a, corrected } of reports) {
      const interval = a.kappaInterval ? ` [${a.kappaInterval.low.toFixed(3)}, ${a.kappaInterval.high.toFixed(3)}]` : '';
      const kappa = a.kappa === null ? `— (${a.kappaNote ?? 'undefined'})` : `${a.kappa.toFixed(3)}${interval}`;
      lines.push(visibleControls(`  ${between}: n ${a.n}, exact ${share(a.exact)}, within ±1 ${share(a.relaxed)}, weighted kappa ${kappa}`));
      const levels = a.confusion.levels;
      lines.push(`    confusion (rows: first, columns: second)  ${levels.map((l) => String(l).padStart(4)).join('')}`);
      a.confusion.counts.forEach((row, i) => lines.push(`    ${String(levels[i]).padStart(40)}  ${row.map((c) => String(c).padStart(4)).join('')}`));
      if (corrected) lines.push(...correctedLines(corrected));
    }
    // The run's own reviews (pass / fail) as the labels: no levels to compare, the corrected rate only.
    if (byReviews) lines.push('  judge vs human reviews (assay review):', correctedRateLine(byReviews, '    '));
  }
  return `${lines.join('\n')}\n`;
}
