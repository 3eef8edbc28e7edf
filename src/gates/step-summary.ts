import { appendFileSync } from 'node:fs';
import { formatFigure, formatInterval } from './format-figure.js';
import type { GateResult } from './gate-result.js';
import { outcomeCounts, relationCell } from './outcome-words.js';

const MARK = { pass: '✅ pass', fail: '❌ fail', inconclusive: '⚠️ inconclusive' } as const;

/**
 * The gates as a GitHub-flavoured Markdown table for a job's step summary: a heading with the
 * counts, one row per gate (task, model, metric, figure, 95% interval and how it lies against the
 * threshold, the gate, the outcome), then the reason of each gate that did not pass. Cells are
 * escaped: a name holding `|`, markup or a line break stays in its cell as text.
 */
export function renderStepSummary(results: readonly GateResult[], options: { readonly suite: string; readonly strict?: boolean }): string {
  const lines = [
    `### assay suite ${cell(options.suite)}: ${outcomeCounts(results)}${options.strict === true ? ' (strict: inconclusive fails)' : ''}`,
    '',
    '| task | model | metric | value | 95% interval | gate | outcome |',
    '|---|---|---|---:|---|---|---|',
  ];
  for (const r of results) {
    const signed = r.kind === 'regression';
    const interval = `${formatInterval(r.interval, r.unit, signed)}${relationCell(r) ? ` ${relationCell(r)}` : ''}`;
    const gate = `${r.kind === 'regression' ? 'regression: ' : ''}${r.rule}`;
    lines.push(`| ${cell(r.entry)} | ${cell(r.model)} | ${cell(r.metric)} | ${cell(formatFigure(r.value, r.unit, signed))} | ${cell(interval)} | ${cell(gate)} | ${MARK[r.outcome]} |`);
  }
  const open = results.filter((r) => r.outcome !== 'pass');
  if (open.length > 0) {
    lines.push('');
    for (const r of open) lines.push(`- **${r.outcome}** ${cell(r.entry)} · ${cell(r.model)} · ${cell(r.metric)}: ${cell(r.reason)}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Appends the table to the file `$GITHUB_STEP_SUMMARY` names (GitHub Actions shows it on the
 * job's page). Returns whether it wrote: nothing is written when the variable is unset or empty.
 */
export function appendStepSummary(markdown: string, env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const file = env['GITHUB_STEP_SUMMARY'];
  if (file === undefined || file === '') return false;
  appendFileSync(file, markdown.endsWith('\n') ? `${markdown}\n` : `${markdown}\n\n`);
  return true;
}

/** A table cell's text: one line, pipes escaped, HTML markup inert (GitHub renders inline HTML). */
function cell(text: string): string {
  return text
    .replace(/[\r\n\u2028\u2029]+/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|');
}
