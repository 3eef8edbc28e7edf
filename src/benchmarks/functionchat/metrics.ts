import { isNoVerdict, type Score } from '../../core/index.js';
import { ratio, shareWithInterval } from '../../metrics/rates.js';
import { foldRows } from '../metrics-fold.js';
import type { MetricValue, Metrics, MetricsFold, ScoredSample } from '../task.js';
import { functionchatMeta, type FunctionChatMeta } from './metadata.js';
import { ERROR_CATEGORIES } from './taxonomy.js';

/**
 * FunctionChat metrics. Rates are over every scored sample (samples whose model call failed have
 * no score and are left out); a no-verdict counts as not passed in every rate AND is counted
 * separately in `no_verdict`, never folded into pass or fail silently.
 *
 * Each is a fold ({@link MetricsFold}): a run's rows are counted one at a time, so the summary
 * holds counters, not rows.
 */

interface Scored {
  readonly meta: FunctionChatMeta;
  readonly score: Score;
}

/** A fold over the scored rows (samples whose call failed left out), each read with its metadata. */
function scoredFold(tally: { add(row: Scored): void; finish(): Metrics }): MetricsFold {
  return {
    add(row) {
      if (row.score !== undefined) tally.add({ meta: functionchatMeta(row.sample), score: row.score });
    },
    finish: () => tally.finish(),
  };
}

/** `{pass, pass_rate, no_verdict, n}` of a group, counted a row at a time. */
class PassTally {
  pass = 0;
  noVerdict = 0;
  n = 0;

  add({ score }: Scored): void {
    this.n++;
    if (score.value === true) this.pass++;
    if (isNoVerdict(score)) this.noVerdict++;
  }

  tally(): { pass: number; pass_rate: number | null; no_verdict: number; n: number } {
    return { pass: this.pass, pass_rate: ratio(this.pass, this.n), no_verdict: this.noVerdict, n: this.n };
  }

  /** The tally at the top of the metrics: its pass rate followed by its Wilson 95% interval (`pass_rate_ci95`). */
  overall(): Metrics {
    return { pass: this.pass, ...shareWithInterval('pass_rate', this.pass, this.n), no_verdict: this.noVerdict, n: this.n };
  }
}

/** The tally of each group, groups in the order given (then any others, in order of appearance). */
class PassTallyBy {
  private readonly groups: Map<string, PassTally>;

  constructor(private readonly key: (r: Scored) => string | undefined, order: readonly string[] = []) {
    this.groups = new Map(order.map((k) => [k, new PassTally()]));
  }

  add(row: Scored): void {
    const k = this.key(row);
    if (k === undefined) return;
    let group = this.groups.get(k);
    if (!group) this.groups.set(k, (group = new PassTally()));
    group.add(row);
  }

  /** The groups with rows, by key. */
  present(): [string, PassTally][] {
    return [...this.groups].filter(([, g]) => g.n > 0);
  }

  tallies(): Record<string, MetricValue> {
    return Object.fromEntries(this.present().map(([k, g]) => [k, g.tally()]));
  }
}

/**
 * Count per error category over the call items (all categories listed, zeros included). An item
 * with several categories counts in each; `items` is the number of call items with any error.
 */
class ErrorTally {
  private readonly counts: Record<string, number> = Object.fromEntries(ERROR_CATEGORIES.map((c) => [c, 0]));
  private items = 0;

  add({ score }: Scored): void {
    const errors = score.metadata?.['errors'];
    if (!Array.isArray(errors) || errors.length === 0) return;
    this.items += 1;
    for (const e of errors) if (typeof e === 'string' && Object.hasOwn(this.counts, e)) this.counts[e] = (this.counts[e] ?? 0) + 1;
  }

  breakdown(): Record<string, number> {
    return { ...this.counts, items: this.items };
  }
}

export const TOOLS_TYPES = ['exact', '4_random', '4_close', '8_random', '8_close'] as const;

/** Single-call: `pass` (count), `pass_rate`, `no_verdict` (count), `n`, `by_tools_type`, `errors`. */
export function singlecallMetrics(rows: Iterable<ScoredSample>): Metrics {
  return foldRows(singlecallFold(), rows);
}

/** {@link singlecallMetrics} a row at a time. */
export function singlecallFold(): MetricsFold {
  const all = new PassTally();
  const byToolsType = new PassTallyBy((r) => r.meta.tools_type, TOOLS_TYPES);
  const errors = new ErrorTally();
  return scoredFold({
    add(r) {
      all.add(r);
      byToolsType.add(r);
      errors.add(r);
    },
    finish: () => ({ ...all.overall(), by_tools_type: byToolsType.tallies(), errors: errors.breakdown() }),
  });
}

export const DIALOG_OUTPUT_TYPES = ['call', 'completion', 'slot', 'relevance'] as const;

/**
 * Dialog: `pass_rate` per output type, `micro` (passes / all scored turns), `macro` (mean of
 * the output-type rates, over the types that have scored turns; null when none), `pass`,
 * `no_verdict`, `n`, `by_type_of_output` (the full tallies) and `errors` (call turns).
 */
export function dialogMetrics(rows: Iterable<ScoredSample>): Metrics {
  return foldRows(dialogFold(), rows);
}

/** {@link dialogMetrics} a row at a time. */
export function dialogFold(): MetricsFold {
  const all = new PassTally();
  // Only the four output types have a rate; any other type is a tally of its own in `by_type_of_output`.
  const byType = new PassTallyBy((r) => r.meta.type_of_output, DIALOG_OUTPUT_TYPES);
  const callErrors = new ErrorTally();
  return scoredFold({
    add(r) {
      all.add(r);
      byType.add(r);
      if (r.meta.type_of_output === 'call') callErrors.add(r);
    },
    finish() {
      const rates: Record<string, number | null> = {};
      for (const [type, group] of byType.present()) if ((DIALOG_OUTPUT_TYPES as readonly string[]).includes(type)) rates[type] = group.tally().pass_rate;
      const present = Object.values(rates).filter((v): v is number => v !== null);
      const { pass, no_verdict, n } = all.tally();
      return {
        pass_rate: rates,
        ...shareWithInterval('micro', pass, n),
        macro: present.length === 0 ? null : present.reduce((a, b) => a + b, 0) / present.length,
        pass,
        no_verdict,
        n,
        by_type_of_output: byType.tallies(),
        errors: callErrors.breakdown(),
      };
    },
  });
}

export const CALLDECISION_CATEGORIES = ['CALL', 'REJECT', 'SLOT-all', 'SLOT-some'] as const;

/** Call decision: overall `pass`, `pass_rate`, `no_verdict`, `n`; `by_category` tallies; `errors` (CALL items). */
export function callDecisionMetrics(rows: Iterable<ScoredSample>): Metrics {
  return foldRows(callDecisionFold(), rows);
}

/** {@link callDecisionMetrics} a row at a time. */
export function callDecisionFold(): MetricsFold {
  const all = new PassTally();
  const byCategory = new PassTallyBy((r) => r.meta.category, CALLDECISION_CATEGORIES);
  const callErrors = new ErrorTally();
  return scoredFold({
    add(r) {
      all.add(r);
      byCategory.add(r);
      if (r.meta.type_of_output === 'call') callErrors.add(r);
    },
    finish: () => ({ ...all.overall(), by_category: byCategory.tallies(), errors: callErrors.breakdown() }),
  });
}
