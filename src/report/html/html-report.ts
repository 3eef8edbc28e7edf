import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { RunComparison } from '../../analysis/compare/run-comparison.js';
import type { ReportBundle, RunReport } from '../run-report.js';
import { REPORT_CSS } from './style.js';

/**
 * JSON that can sit inside a `<script>` element and in any HTML context: `<`, `>` and `&` as
 * `\u003c`… (so no `</script>` or `<!--` can end or change the element) and U+2028/U+2029
 * escaped (line terminators to old JavaScript parsers). `JSON.parse` reads it back unchanged.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

let pageScript: string | undefined;

/** The page's script, compiled from `html/page/` beside this file (see its tsconfig). */
export function reportPageScript(): string {
  pageScript ??= readFileSync(new URL('./page.js', import.meta.url), 'utf8');
  return pageScript;
}

/**
 * The Content-Security-Policy of a report: nothing may be fetched or connected to (`default-src
 * 'none'`), only the page's own script and style run (by hash), images only as data: URLs.
 * `connect` is for a page served by a local viewer that fetches its data from the same origin.
 */
export function reportCsp(script: string, style: string, connect: 'none' | 'self' = 'none'): string {
  return [
    "default-src 'none'",
    `script-src ${sha256(script)}`,
    `style-src ${sha256(style)}`,
    'img-src data:',
    `connect-src '${connect}'`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** The page shell around the data: CSP, style, the app's root, the summaries' JSON, the script, then the samples' JSON. */
function page(title: string, dataScripts: string, lateScripts: string, connect: 'none' | 'self'): string {
  const script = reportPageScript();
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${reportCsp(script, REPORT_CSS, connect)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${title}</title>`,
    `<style>${REPORT_CSS}</style>`,
    '</head>',
    '<body>',
    '<div id="app"><p>This report needs JavaScript to show its pages.</p></div>',
    dataScripts,
    `<script>${script}</script>`,
    lateScripts,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/**
 * The single-file report: the summaries first (the overview paints from them while the browser
 * is still reading the rest), then one block per run with its sample index and details, read
 * only when the sample browser opens. No network when viewed.
 */
export function renderReportHtml(bundle: ReportBundle, extras: { readonly comparison?: RunComparison } = {}): string {
  const summaries = { ...bundle, runs: bundle.runs.map(({ index: _index, details: _details, ...rest }) => rest) };
  const samples = bundle.runs.map((run: RunReport, i) => `<script type="application/json" id="assay-samples-${i}">${scriptSafeJson({ index: run.index, details: run.details })}</script>`);
  const data = [`<script type="application/json" id="assay-report">${scriptSafeJson(summaries)}</script>`];
  // A comparison of the bundle's two runs (run A first): the page adds its Comparison tab and opens on it.
  if (extras.comparison) data.push(`<script type="application/json" id="assay-comparison">${scriptSafeJson(extras.comparison)}</script>`);
  const demo = bundle.runs.some((run) => run.summary.demo !== undefined) ? ' (demo: scripted answers)' : '';
  return page(`${extras.comparison ? 'assay compare' : 'assay report'}${demo}`, data.join('\n'), samples.join('\n'), 'none');
}

/**
 * The same page with its data fetched from URLs (a local viewer): `bundle` answers the
 * summaries (a {@link ReportBundle} without index and details is enough), `samples` and `detail`
 * are URL templates with `{run}` and `{row}`; `progress`, when given, answers the runs' progress,
 * which the page polls while a run is in progress (then fetches `bundle` again when it moved).
 */
export function renderReportShell(urls: { readonly bundle: string; readonly samples: string; readonly detail: string; readonly progress?: string }): string {
  return page('assay report', `<script type="application/json" id="assay-source">${scriptSafeJson(urls)}</script>`, '', 'self');
}

/**
 * The viewer's run list, drawn by the same page script: `runs` answers every run's progress;
 * `open` is a URL template with `{runs}` (comma-separated run ids) for a run's report page.
 */
export function renderRunListShell(urls: { readonly runs: string; readonly open: string }): string {
  return page('assay runs', `<script type="application/json" id="assay-run-list">${scriptSafeJson(urls)}</script>`, '', 'self');
}
