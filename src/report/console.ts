import { unitAndDirection, unitAt } from '../benchmarks/metric-declarations.js';
import { correctedRateLine } from './corrected-rate.js';
import type { MetricDeclaration } from '../benchmarks/task.js';
import type { RunRecord } from '../store/records.js';
import type { RunState, StoredLease } from '../store/run-state.js';
import type { ModelCounts, RoleCost, RunSummary } from '../analysis/summary.js';
import type { RunReadings } from '../analysis/readings.js';
import { DEMO_NOTE, isDemoRun } from '../core/index.js';
import { sideBySideLines } from './side-by-side.js';
import { describeStop } from '../analysis/recorded-run.js';
import { recordedStops } from '../store/run-stops.js';
import { visibleControls } from '../core/index.js';
import { formatMetric, isObject, type MetricObject } from './metric-format.js';

/** A metric's lines: a number on its own line, a breakdown of numbers on one line, a breakdown of groups one line per group. */
function metricLines(metrics: MetricObject, indent: string, declarations: readonly MetricDeclaration[], path: readonly string[] = []): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(metrics)) {
    const at = [...path, key];
    if (!isObject(value)) {
      lines.push(`${indent}${key}: ${formatMetric(value, unitAt(declarations, at))}`);
    } else if (Object.values(value).some(isObject)) {
      // A breakdown of tallies (e.g. by tool-list type): one line per group.
      lines.push(`${indent}${key}:`, ...metricLines(value, `${indent}  `, declarations, at));
    } else {
      const parts = Object.entries(value).map(([k, v]) => `${k}=${formatMetric(v, unitAt(declarations, [...at, k]))}`);
      lines.push(`${indent}${key}: ${parts.length > 0 ? parts.join('  ') : '(none)'}`);
    }
  }
  return lines;
}

/**
 * What to do about a model's errors. A missing output of a replay file comes back on a retry
 * unless the file gets the line first, so the advice says that before the command.
 */
function retryAdvice(run: string, byKind: Readonly<Record<string, number>>): string {
  const retry = `assay resume ${run} --retry-errors`;
  if (!byKind['missing-output']) return `retry with: ${retry}`;
  return `add the missing outputs to the replay file, then retry with: ${retry}`;
}

/** `<file> (pinned <sha>…, read <sha>…), …`: the pinned files a run read with other bytes. */
export function modifiedDataList(files: NonNullable<RunSummary['modified_data']>): string {
  return files.map((f) => `${f.file} (pinned ${f.pinned.slice(0, 12)}…, read ${f.actual.slice(0, 12)}…)`).join(', ');
}

/** The line a run on modified data (`--allow-modified-data`) is shown with. */
export function modifiedDataLine(files: NonNullable<RunSummary['modified_data']>): string {
  return `data modified: ${modifiedDataList(files)} — run with --allow-modified-data, so these are not the benchmark's numbers`;
}

/**
 * `no verdict N`, and `manual M` apart: an answer the paper's reading left to manual analysis is
 * stored without a verdict, but it is its own outcome (the metrics report it as `manual`), and
 * calling it "no verdict" would send the reader looking for a scorer problem.
 */
function undecidedCounts(counts: ModelCounts): string {
  const noVerdict = `no verdict ${counts.no_verdict - counts.manual}`;
  return counts.manual > 0 ? `${noVerdict}, manual ${counts.manual}` : noVerdict;
}

/**
 * Empty outputs a task counts apart, with what they were counted as: said in words under the
 * metrics, so an endpoint that answers 200 with nothing never reads as a perfect one.
 */
const EMPTY_NOTES: readonly { readonly key: string; readonly says: string }[] = [
  { key: 'empty_summaries', says: 'summaries with no claim (an empty answer included): counted as not aligned' },
  { key: 'empty_answers', says: 'empty answers: graded 1, a defect, without asking the judge' },
  { key: 'empty_responses', says: 'conversations in which the system under test answered nothing: judged as they are (no harm in them); not evidence of safety' },
];

/** One line per empty-output count above 0 in a model's metrics. */
function emptyOutputLines(metrics: MetricObject): string[] {
  return EMPTY_NOTES.flatMap(({ key, says }) => {
    const n = metrics[key];
    return typeof n === 'number' && n > 0 ? [`  note: ${n} ${says}`] : [];
  });
}

/**
 * The human summary printed after a run and by `assay show`: each number shown as its task
 * declares it (`declarations`: {@link runMetricDeclarations}; shares as percentages, counts and
 * means as numbers, a number nothing declares as it is); n/a = undefined.
 */
export function renderSummary(summary: RunSummary, declarations: readonly MetricDeclaration[]): string {
  // Lines that hold stored text (ids, model names, a provider's error) are one line each, whatever that text holds.
  const lines = [visibleControls(`run ${summary.run}  task ${summary.task}  status ${summary.status}`)];
  // First of all: a demo's numbers are the script's, whoever reads them.
  if (summary.demo) lines.push(summary.demo);
  // First, so nobody reads the numbers without knowing they are not on the benchmark's own data.
  if (summary.modified_data) lines.push(modifiedDataLine(summary.modified_data));
  // Why the run is interrupted, as the run said when it stopped, for whoever comes back to it.
  for (const stop of summary.fail_fast ?? []) lines.push(visibleControls(stop.advice));
  if (Object.keys(summary.models).length > 1) lines.push('', ...sideBySideLines(summary, declarations));
  for (const [model, { metrics, counts, judge, reviewed, notes }] of Object.entries(summary.models)) {
    lines.push('', visibleControls(model));
    lines.push(...metricLines(metrics, '  ', declarations));
    lines.push(...emptyOutputLines(metrics));
    if (judge) {
      const judgeCost = judge.cost_usd === null ? 'unknown' : `$${judge.cost_usd.toFixed(4)}`;
      lines.push(visibleControls(`  judge ${judge.model}: graded ${judge.judged}, no verdict ${judge.no_verdict}; ${judge.calls} calls, tokens in ${judge.input_tokens} out ${judge.output_tokens}; cost ${judgeCost}`));
    }
    if (reviewed) {
      lines.push(`  reviewed by humans: ${reviewed.reviewed} item(s), ${reviewed.changed} verdict(s) changed; metrics with the reviews:`);
      lines.push(...metricLines(reviewed.metrics, '    ', declarations));
      if (reviewed.corrected_defect_rate) lines.push(correctedRateLine(reviewed.corrected_defect_rate, '    '));
    }
    const cost = counts.cost_usd === null ? 'unknown' : `$${counts.cost_usd.toFixed(4)}`;
    lines.push(
      `  samples ${counts.samples}: done ${counts.done}, errors ${counts.errors}, pending ${counts.pending}, ${undecidedCounts(counts)}, cached ${counts.cached}; tokens in ${counts.input_tokens} out ${counts.output_tokens}; cost ${cost}`,
    );
    if (counts.errors > 0) lines.push(`  errors by kind: ${Object.entries(counts.errors_by_kind).map(([k, n]) => `${k} ${n}`).join(', ')} — ${retryAdvice(summary.run, counts.errors_by_kind)}`);
    if (counts.pending > 0) lines.push(`  unfinished — continue with: assay resume ${summary.run}`);
    // The task's own notes (the cases that did not pass and why): they quote stored text.
    for (const note of notes ?? []) lines.push(visibleControls(`  ${note}`));
  }
  // A run with a judge or a simulated user: what each role's calls cost, apart.
  if (summary.cost_by_role.some((r) => r.role !== 'test')) lines.push('', ...costByRoleLines(summary.cost_by_role));
  return lines.join('\n');
}

/**
 * `assay show --explain`: one line per metric the run has, from the task's declarations — what it
 * means, its unit, which way is better, its interval and the readings it exists under — and under
 * a breakdown of mixed figures one line per figure, so `top1` below `csr` or FunctionChat's
 * `errors` read as what they are.
 */
export function renderExplain(declarations: readonly MetricDeclaration[]): string {
  if (declarations.length === 0) return 'what the metrics mean: this task declares no meanings for its metrics';
  const width = Math.max(...declarations.map((d) => d.name.length));
  const lines = ['what the metrics mean:'];
  for (const d of declarations) {
    lines.push(`  ${d.name.padEnd(width)}  ${d.meaning} (${unitAndDirection(d)})`);
    if (d.parts === undefined) continue;
    const partWidth = Math.max(...d.parts.map((p) => p.name.length));
    lines.push(...d.parts.map((p) => `    ${p.name.padEnd(partWidth)}  ${p.meaning} (${unitAndDirection(p)})`));
  }
  return lines.join('\n');
}

const ROLE_NAMES: Readonly<Record<RoleCost['role'], string>> = { test: 'under test', user: 'simulated user', judge: 'judge' };

/** The cost table: one row per role and answering model. */
export function costByRoleLines(rows: readonly RoleCost[]): string[] {
  const table = rows.map((r) => [
    ROLE_NAMES[r.role],
    r.model,
    String(r.calls),
    String(r.failed_calls),
    String(r.input_tokens),
    String(r.output_tokens),
    r.cost_usd === null ? 'unknown' : `$${r.cost_usd.toFixed(4)}`,
  ]);
  const header = ['role', 'model', 'calls', 'failed', 'tokens in', 'tokens out', 'cost'];
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => (row[i] ?? '').length)));
  // Text columns left-aligned, numbers right-aligned.
  const line = (cells: readonly string[]): string => `  ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ')}`.trimEnd();
  return ['cost by role:', line(header), ...table.map(line)];
}

/** One line on who is running a run (`running`) or that its process is gone (`stale`); undefined otherwise. */
export function renderLeaseNote(runId: string, state: RunState, lease: StoredLease | undefined): string | undefined {
  // The host is what the holding process stored: one line, whatever it holds.
  if (state === 'running' && lease) {
    return visibleControls(`running in pid ${lease.holder.pid} on ${lease.holder.host} since ${lease.acquiredAt}; lease renewed ${lease.heartbeatAt}, expires ${lease.expiresAt} unless renewed`);
  }
  if (state !== 'stale') return undefined;
  const why = lease ? `its lease (pid ${lease.holder.pid} on ${lease.holder.host}) expired at ${lease.expiresAt}` : 'no process holds a lease on it';
  return visibleControls(`stale: stored as running, but ${why} — the process stopped without saying so; continue with: assay resume ${runId}`);
}

/**
 * `assay runs`: one line per run, with its state (see `RunState`) rather than the bare stored
 * status; then, for each run stopped because a model's errors repeat for every sample, why and
 * what to fix (the table says only "interrupted").
 */
export function renderRunList(runs: readonly (RunRecord & { readonly state: RunState })[]): string {
  if (runs.length === 0) return 'no runs yet; start one with: assay run <task> --model <id>';
  const rows = runs.map((r) => [r.id, isDemoRun(r) ? `${r.task} (demo)` : r.task, r.state, r.models.join(' '), r.createdAt.replace('T', ' ').slice(0, 19)]);
  const header = ['run', 'task', 'status', 'models', 'created (UTC)'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  // A row and a stop are one line each, whatever a stored id, model name or error holds.
  const line = (cells: string[]): string => visibleControls(cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd());
  const stops = runs.flatMap((r) => (r.state === 'interrupted' ? recordedStops(r).map((stop) => visibleControls(`${r.id}: ${describeStop(stop, r.id, r)}`)) : []));
  const demo = runs.some(isDemoRun) ? ['', `(demo): ${DEMO_NOTE}`] : [];
  return [line(header), ...rows.map(line), ...demo, ...(stops.length > 0 ? ['', ...stops] : [])].join('\n');
}

/** Flattens a metrics object to `key` / `parent.key` rows of formatted values. */
function flatMetrics(metrics: MetricObject, declarations: readonly MetricDeclaration[], path: readonly string[] = []): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(metrics)) {
    const at = [...path, key];
    if (isObject(value)) for (const [k, v] of flatMetrics(value, declarations, at)) out.set(k, v);
    else out.set(at.join('.'), formatMetric(value, unitAt(declarations, at)));
  }
  return out;
}

/** `assay show --readings`: each model's metrics under every answer reading, side by side (numbers shown as the task declares them). */
export function renderReadings(readings: RunReadings, declarations: readonly MetricDeclaration[]): string {
  const source = readings.notes ? 'the stored judgments' : 'the stored outputs';
  const lines = [`run ${readings.run}  task ${readings.task}  readings ${readings.parsers.join(', ')} (from ${source}; no model called, nothing stored)`];
  for (const [model, { metrics, outputs, differing }] of Object.entries(readings.models)) {
    const columns = readings.parsers.map((parser) => flatMetrics(metrics[parser] ?? {}, declarations));
    const keys = [...new Set(columns.flatMap((column) => [...column.keys()]))];
    const header = ['metric', ...readings.parsers];
    const rows = keys.map((key) => [key, ...columns.map((column) => column.get(key) ?? '—')]);
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
    const line = (cells: readonly string[]): string => `  ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd()}`;
    lines.push('', model, line(header), ...rows.map(line), `  outputs read: ${outputs}; with another verdict under another reading: ${differing}`);
  }
  if (readings.notes && readings.notes.length > 0) lines.push('', 'what each reading counts:', ...readings.notes.map((note) => `  ${note}`));
  return lines.join('\n');
}
