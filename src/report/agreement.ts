import { visibleControls } from '../core/index.js';
import type { RunAgreement } from '../runner/agreement.js';

const share = (v: number | null): string => (v === null ? '—' : v.toFixed(3));

/** The console form of `assay agreement`: per model, each comparison's figures and its confusion matrix. */
export function renderAgreement(report: RunAgreement): string {
  // Lines holding stored names (run, task, models, raters) are one line each, whatever those hold.
  const lines = [visibleControls(`agreement for run ${report.run} (${report.task}), severity scale ${report.scale.min}–${report.scale.max}`)];
  for (const [model, reports] of Object.entries(report.models)) {
    lines.push(visibleControls(`${model}:`));
    if (reports.length === 0) lines.push('  nothing to compare: give --labels <file.csv> or --with <run>, or run the judge with --judge-repeats ≥ 2');
    for (const { between, agreement: a } of reports) {
      const interval = a.kappaInterval ? ` [${a.kappaInterval.low.toFixed(3)}, ${a.kappaInterval.high.toFixed(3)}]` : '';
      const kappa = a.kappa === null ? `— (${a.kappaNote ?? 'undefined'})` : `${a.kappa.toFixed(3)}${interval}`;
      lines.push(visibleControls(`  ${between}: n ${a.n}, exact ${share(a.exact)}, within ±1 ${share(a.relaxed)}, weighted kappa ${kappa}`));
      const levels = a.confusion.levels;
      lines.push(`    confusion (rows: first, columns: second)  ${levels.map((l) => String(l).padStart(4)).join('')}`);
      a.confusion.counts.forEach((row, i) => lines.push(`    ${String(levels[i]).padStart(40)}  ${row.map((c) => String(c).padStart(4)).join('')}`));
    }
  }
  return `${lines.join('\n')}\n`;
}
