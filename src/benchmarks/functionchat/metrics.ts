import { isNoVerdict, type Score } from '../../core/index.js';
import { ratio, shareWithInterval } from '../../metrics/rates.js';
import type { MetricValue, Metrics, ScoredSample } from '../task.js';
import { functionchatMeta, type FunctionChatMeta } from './metadata.js';
import { ERROR_CATEGORIES } from './taxonomy.js';

/**
 * FunctionChat metrics. Rates are over every scored sample (samples whose model call failed have
 * no score and are left out); a no-verdict counts as not passed in every rate AND is counted
 * separately in `no_verdict`, never folded into pass or fail silently.
 */

interface Scored {
  readonly meta: FunctionChatMeta;
  readonly score: Score;
}

function scoredRows(rows: Iterable<ScoredSample>): Scored[] {
  const out: Scored[] = [];
  for (const row of rows) if (row.score !== undefined) out.push({ meta: functionchatMeta(row.sample), score: row.score });
  return out;
}

/** `{pass, pass_rate, no_verdict, n}` of a group. */
function tally(rows: readonly Scored[]): { pass: number; pass_rate: number | null; no_verdict: number; n: number } {
  const pass = rows.filter((r) => r.score.value === true).length;
  return { pass, pass_rate: ratio(pass, rows.length), no_verdict: rows.filter((r) => isNoVerdict(r.score)).length, n: rows.length };
}

/** The tally at the top of the metrics: its pass rate followed by its Wilson 95% interval (`pass_rate_ci95`). */
function overallTally(rows: readonly Scored[]): Metrics {
  const { pass, no_verdict, n } = tally(rows);
  return { pass, ...shareWithInterval('pass_rate', pass, n), no_verdict, n };
}

/** The tally of each group, groups in the order given (then any others, in order of appearance). */
function tallyBy(rows: readonly Scored[], key: (r: Scored) => string | undefined, order: readonly string[] = []): Record<string, MetricValue> {
  const groups = new Map<string, Scored[]>(order.map((k) => [k, []]));
  for (const r of rows) {
    const k = key(r);
    if (k === undefined) continue;
    const group = groups.get(k);
    if (group) group.push(r);
    else groups.set(k, [r]);
  }
  return Object.fromEntries([...groups].filter(([, g]) => g.length > 0).map(([k, g]) => [k, tally(g)]));
}

/**
 * Count per error category over the call items (all categories listed, zeros included). An item
 * with several categories counts in each; `items` is the number of call items with any error.
 */
export function errorBreakdown(rows: readonly Scored[]): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries(ERROR_CATEGORIES.map((c) => [c, 0]));
  let items = 0;
  for (const { score } of rows) {
    const errors = score.metadata?.['errors'];
    if (!Array.isArray(errors) || errors.length === 0) continue;
    items += 1;
    for (const e of errors) if (typeof e === 'string' && Object.hasOwn(counts, e)) counts[e] = (counts[e] ?? 0) + 1;
  }
  return { ...counts, items };
}

export const TOOLS_TYPES = ['exact', '4_random', '4_close', '8_random', '8_close'] as const;

/** Single-call: `pass` (count), `pass_rate`, `no_verdict` (count), `n`, `by_tools_type`, `errors`. */
export function singlecallMetrics(rows: Iterable<ScoredSample>): Metrics {
  const scored = scoredRows(rows);
  return { ...overallTally(scored), by_tools_type: tallyBy(scored, (r) => r.meta.tools_type, TOOLS_TYPES), errors: errorBreakdown(scored) };
}

export const DIALOG_OUTPUT_TYPES = ['call', 'completion', 'slot', 'relevance'] as const;

/**
 * Dialog: `pass_rate` per output type, `micro` (passes / all scored turns), `macro` (mean of
 * the output-type rates, over the types that have scored turns; null when none), `pass`,
 * `no_verdict`, `n`, `by_type_of_output` (the full tallies) and `errors` (call turns).
 */
export function dialogMetrics(rows: Iterable<ScoredSample>): Metrics {
  const scored = scoredRows(rows);
  const rates: Record<string, number | null> = {};
  for (const type of DIALOG_OUTPUT_TYPES) {
    const group = scored.filter((r) => r.meta.type_of_output === type);
    if (group.length > 0) rates[type] = tally(group).pass_rate;
  }
  const present = Object.values(rates).filter((v): v is number => v !== null);
  const all = tally(scored);
  return {
    pass_rate: rates,
    ...shareWithInterval('micro', all.pass, all.n),
    macro: present.length === 0 ? null : present.reduce((a, b) => a + b, 0) / present.length,
    pass: all.pass,
    no_verdict: all.no_verdict,
    n: all.n,
    by_type_of_output: tallyBy(scored, (r) => r.meta.type_of_output, DIALOG_OUTPUT_TYPES),
    errors: errorBreakdown(scored.filter((r) => r.meta.type_of_output === 'call')),
  };
}

export const CALLDECISION_CATEGORIES = ['CALL', 'REJECT', 'SLOT-all', 'SLOT-some'] as const;

/** Call decision: overall `pass`, `pass_rate`, `no_verdict`, `n`; `by_category` tallies; `errors` (CALL items). */
export function callDecisionMetrics(rows: Iterable<ScoredSample>): Metrics {
  const scored = scoredRows(rows);
  return {
    ...overallTally(scored),
    by_category: tallyBy(scored, (r) => r.meta.category, CALLDECISION_CATEGORIES),
    errors: errorBreakdown(scored.filter((r) => r.meta.type_of_output === 'call')),
  };
}
