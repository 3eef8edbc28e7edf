import { visibleControls } from '../core/index.js';
import { formatFigure, formatInterval } from './format-figure.js';
import type { GateResult } from './gate-result.js';
import { outcomeCounts, relationCell } from './outcome-words.js';

/**
 * The console table of a gated run: task × model × metric with the figure, its 95% interval and
 * how the interval lies against the gate, the gate and its outcome; then one line per gate that
 * did not pass saying why, and the counts. Names from the config file are made terminal-safe.
 */
export function renderGateTable(results: readonly GateResult[], options: { readonly strict?: boolean } = {}): string {
  if (results.length === 0) return 'no gates\n';
  const header = ['task', 'model', 'metric', 'value', '95% interval', 'gate', 'outcome'];
  const rows = results.map((r) => {
    const signed = r.kind === 'regression';
    return [
      r.entry,
      r.model,
      r.metric,
      formatFigure(r.value, r.unit, signed),
      `${formatInterval(r.interval, r.unit, signed)}${relationCell(r) ? ` ${relationCell(r)}` : ''}`,
      `${r.kind === 'regression' ? 'regression: ' : ''}${r.rule}`,
      r.outcome === 'inconclusive' && options.strict === true ? 'inconclusive (fails: strict)' : r.outcome,
    ].map((text) => oneLine(text));
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] as string).length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 3 ? c.padStart(widths[i] as number) : c.padEnd(widths[i] as number))).join('  ').trimEnd();
  const out = [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
  const open = results.filter((r) => r.outcome !== 'pass');
  if (open.length > 0) {
    out.push('');
    for (const r of open) out.push(oneLine(`${r.outcome}: ${r.entry} · ${r.model} · ${r.metric}: ${r.reason}`));
  }
  out.push('', `gates: ${outcomeCounts(results)}`);
  return `${out.join('\n')}\n`;
}

function oneLine(text: string): string {
  return visibleControls(text);
}
