import { rngFor } from '../../core/index.js';
import { bootstrapInterval, wilsonInterval, type Interval } from '../../metrics/intervals.js';
import { ratio } from '../../metrics/rates.js';
import { judgedRows, standingJudgments } from '../judged-rows.js';
import type { Metrics, MetricsContext, MetricValue, ScoredSample } from '../task.js';
import { coverageOf, coverageValueOf, isAligned, judgmentOf, type SummaryJudgment } from './judgment.js';
import { DEFAULT_COVERAGE_QUESTIONS } from './options.js';

/** The bootstrap's seed: fixed, so the same stored scores always give the same intervals. */
const BOOTSTRAP_SEED = 'summaries-metrics';

const interval = (i: Interval | null): MetricValue => (i === null ? null : { low: i.low, high: i.high });

/**
 * What the bootstrap needs of one judged summary, worked out once: each resample then only adds
 * numbers (2,000 resamples of every summary, four statistics, overall and per category, were
 * seconds of CPU at the end of a 2,225-article run when each recounted the claims and the coverage).
 */
interface SummaryUnit {
  readonly verdicts: number;
  readonly yes: number;
  readonly idk: number;
}

function unitOf(j: SummaryJudgment): SummaryUnit {
  let yes = 0;
  let idk = 0;
  for (const c of j.claims) {
    if (c.verdict === 'yes') yes++;
    else if (c.verdict === 'idk') idk++;
  }
  return { verdicts: j.claims.length, yes, idk };
}

/** Σ of a per-summary count over a draw of summaries. */
const total = (draw: readonly SummaryUnit[], key: 'verdicts' | 'yes' | 'idk'): number => {
  let n = 0;
  for (const unit of draw) n += unit[key];
  return n;
};

/** A claim-level share (Σ hits / Σ verdicts) as a statistic of a resample of summaries. */
const claimShare = (hits: 'yes' | 'idk') => (draw: readonly SummaryUnit[]): number | null => ratio(total(draw, hits), total(draw, 'verdicts'));
const meanClaims = (draw: readonly SummaryUnit[]): number | null => ratio(total(draw, 'verdicts'), draw.length);
/** Mean coverage over the summaries that have one (null: no article-answerable question), summed in draw order. */
const meanCoverage = (draw: readonly (number | null)[]): number | null => {
  let sum = 0;
  let count = 0;
  for (const coverage of draw) {
    if (coverage === null) continue;
    sum += coverage;
    count++;
  }
  return count === 0 ? null : sum / count;
};

/** Whether a run asks coverage questions (`--coverage-questions`, 0 turns them off): then a summary without a usable check is coverage no verdict. */
export function coverageAsked(context: MetricsContext | undefined): boolean {
  const k = context?.options.task?.['coverageQuestions'];
  return (typeof k === 'number' ? k : DEFAULT_COVERAGE_QUESTIONS) > 0;
}

/**
 * The coverage side of a set of rows: each metric is decided by the steps it needs, so a summary
 * counts here when its coverage check is usable, whatever its claims gave (an alignment no verdict
 * included). Left out: errors, and summaries whose alignment a reviewer overruled (as for the
 * claim-level figures). `noVerdict`: summaries without a usable check while the run asks for one.
 */
function coverageRows(rows: readonly ScoredSample[], asked: boolean): { readonly values: (number | null)[]; readonly noVerdict: number } {
  const values: (number | null)[] = [];
  let noVerdict = 0;
  for (const row of rows) {
    if (row.score === undefined) continue;
    const judgment = judgmentOf(row.score);
    if (row.review !== undefined && judgment !== undefined && row.review !== isAligned(judgment)) continue;
    if (coverageOf(row.score) !== undefined) values.push(coverageValueOf(row.score));
    else if (asked) noVerdict++;
  }
  return { values, noVerdict };
}

/**
 * The metrics of judged summaries; each metric is decided by the steps it needs, with its own no
 * verdicts. Each with a 95% interval:
 * - `alignment`: share of the summaries whose claims and verdicts the judge gave with at least one
 *   claim and no `no` claim (the seed's definition, except that a summary with no claim — an empty
 *   answer — fails: it is also counted in `empty_summaries`) — Wilson interval;
 * - `claim_support` (yes / all verdicts) and `idk_rate` (idk / all verdicts) — claim-level shares,
 *   pooled over the claims of all summaries (not a mean of per-summary shares);
 * - `richness`: mean claims per judged summary;
 * - `coverage`: mean over summaries with a usable coverage check of the share of
 *   article-answerable questions the summary answers (summaries without such a question left
 *   out); its no verdicts are `coverage_no_verdict`;
 * claim-level shares and means get a seeded percentile bootstrap over **summaries** (the claims of
 * one summary are not independent). `judged`, `no_verdict` (the claims or verdicts gave no usable
 * answer: alignment and the claim-level figures have none), `n` (their sum) and `errors` (the
 * summary or a judge call failed) are counts, outside every denominator.
 * With human reviews (`ScoredSample.review`): a reviewed summary is aligned when the reviewer
 * passed it (`judged` counts it, a no verdict reviewed included); the claims and coverage of
 * summaries whose alignment a reviewer overruled are left out of the claim-level figures and coverage.
 */
function summaryMetrics(rows: readonly ScoredSample[], label: string, coverageOn: boolean): Record<string, MetricValue> {
  const { decided, noVerdict, errors } = judgedRows(rows, judgmentOf, isAligned);
  const judged = standingJudgments(decided);
  const aligned = decided.filter((d) => d.pass).length;
  const units = judged.map(unitOf);
  const rng = (name: string) => ({ rng: rngFor(BOOTSTRAP_SEED, `${label}:${name}`) });
  const boot = (name: string, statistic: (draw: readonly SummaryUnit[]) => number | null): MetricValue => interval(bootstrapInterval(units, statistic, rng(name)));
  const covered = coverageRows(rows, coverageOn);
  const coverage = meanCoverage(covered.values);
  return {
    alignment: ratio(aligned, decided.length),
    alignment_ci95: interval(wilsonInterval(aligned, decided.length)),
    claim_support: claimShare('yes')(units),
    claim_support_ci95: boot('claim_support', claimShare('yes')),
    idk_rate: claimShare('idk')(units),
    idk_rate_ci95: boot('idk_rate', claimShare('idk')),
    richness: meanClaims(units),
    richness_ci95: boot('richness', meanClaims),
    coverage,
    coverage_ci95: coverage === null ? null : interval(bootstrapInterval(covered.values, meanCoverage, rng('coverage'))),
    ...(coverageOn ? { coverage_no_verdict: covered.noVerdict } : {}),
    empty_summaries: judged.filter((j) => j.claims.length === 0).length,
    judged: decided.length,
    no_verdict: noVerdict,
    // Summaries the judge was asked about (judged + no verdict): the size beside the counts.
    n: decided.length + noVerdict,
    errors,
  };
}

/** {@link summaryMetrics} overall and per category (`by_category`, categories in name order). */
export function summariesMetrics(rows: Iterable<ScoredSample>, context?: MetricsContext): Metrics {
  const coverageOn = coverageAsked(context);
  const all = [...rows];
  const byCategory = new Map<string, ScoredSample[]>();
  for (const row of all) {
    const category = row.sample.metadata['category'];
    if (typeof category !== 'string') continue;
    const list = byCategory.get(category) ?? [];
    list.push(row);
    byCategory.set(category, list);
  }
  const categories = [...byCategory.keys()].sort();
  return {
    ...summaryMetrics(all, 'all', coverageOn),
    ...(categories.length > 0 ? { by_category: Object.fromEntries(categories.map((c) => [c, summaryMetrics(byCategory.get(c) ?? [], `category:${c}`, coverageOn)])) } : {}),
  };
}
