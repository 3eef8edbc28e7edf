import { writeFileSync } from 'node:fs';
import { formatFigure, formatInterval } from './format-figure.js';
import type { GateResult } from './gate-result.js';

export interface JUnitOptions {
  /** The suite's name: the document's `name` and each test case's class prefix. */
  readonly suite: string;
  /** `strict: true`: an inconclusive gate is a `<failure>` (it fails the run), else `<skipped>`. */
  readonly strict?: boolean;
}

/**
 * The gates as JUnit XML, for CI test reporters: one `<testsuite>` per suite entry (its task),
 * one `<testcase>` per gate and model. A failed gate is a `<failure>`; an inconclusive one is
 * `<skipped>` (it neither passed nor failed), or a `<failure type="inconclusive">` under
 * `strict`, where it fails the run. Every test case carries its figures, interval and the reason
 * in `<system-out>`, and a failure or skip repeats them in its `message`. `errors` is always 0:
 * a gate's outcome is never an error of the gate itself.
 */
export function renderJUnit(results: readonly GateResult[], options: JUnitOptions): string {
  const entries = [...new Set(results.map((r) => r.entry))];
  const counts = (rs: readonly GateResult[]) => ({
    tests: rs.length,
    failures: rs.filter((r) => r.outcome === 'fail' || (options.strict === true && r.outcome === 'inconclusive')).length,
    skipped: options.strict === true ? 0 : rs.filter((r) => r.outcome === 'inconclusive').length,
  });
  const attributes = (c: ReturnType<typeof counts>) => `tests="${c.tests}" failures="${c.failures}" errors="0" skipped="${c.skipped}"`;
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="${xml(`assay suite ${options.suite}`)}" ${attributes(counts(results))}>`];
  for (const entry of entries) {
    const inEntry = results.filter((r) => r.entry === entry);
    lines.push(`  <testsuite name="${xml(entry)}" ${attributes(counts(inEntry))}>`);
    for (const result of inEntry) lines.push(...testCase(result, options));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}

/** Writes {@link renderJUnit}'s document to `file` (`--junit FILE`). */
export function writeJUnit(file: string, results: readonly GateResult[], options: JUnitOptions): void {
  writeFileSync(file, renderJUnit(results, options));
}

function testCase(result: GateResult, options: JUnitOptions): string[] {
  const name = `${result.model}: ${result.metric} ${result.kind === 'regression' ? '(regression) ' : ''}${result.rule}`;
  const open = `    <testcase classname="${xml(`assay.${options.suite}.${result.entry}`)}" name="${xml(name)}">`;
  const figures = `${result.metric} ${formatFigure(result.value, result.unit, result.kind === 'regression')}, 95% interval ${formatInterval(result.interval, result.unit, result.kind === 'regression')}: ${result.reason}`;
  const out = `      <system-out>${xml(figures)}</system-out>`;
  if (result.outcome === 'pass') return [open, out, '    </testcase>'];
  if (result.outcome === 'fail') return [open, `      <failure message="${xml(figures)}" type="gate-failed">${xml(figures)}</failure>`, out, '    </testcase>'];
  if (options.strict === true) return [open, `      <failure message="${xml(`inconclusive (strict): ${figures}`)}" type="inconclusive">${xml(figures)}</failure>`, out, '    </testcase>'];
  return [open, `      <skipped message="${xml(`inconclusive: ${figures}`)}"/>`, out, '    </testcase>'];
}

/**
 * Text as XML character data or an attribute value: the five markup characters escaped, and the
 * characters XML 1.0 cannot hold at all (C0 controls but tab and line breaks, U+FFFE/FFFF, lone
 * surrogates) written visibly as `\uXXXX` rather than making the file unreadable to its parser.
 */
export function xml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\r/g, '&#13;')
    .replace(/\n/g, '&#10;');
}
