import { rngFor } from '../../core/index.js';
import { bootstrapInterval, wilsonInterval, type Interval } from '../../metrics/intervals.js';
import { ratio } from '../../metrics/rates.js';
import { judgedRows, standingJudgments } from '../judged-rows.js';
import type { Metrics, MetricValue, ScoredSample } from '../task.js';
import { isAligned, judgmentOf, summaryCoverage, type SummaryJudgment } from './judgment.js';

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
  /** The summary's coverage ({@link summaryCoverage}); null without a coverage check or an article-answerable question. */
  readonly coverage: number | null;
}

function unitOf(j: SummaryJudgment): SummaryUnit {
  let yes = 0;
  let idk = 0;
  for (const c of j.claims) {
    if (c.verdict === 'yes') yes++;
    else if (c.verdict === 'idk') idk++;
  }
  return { verdicts: j.claims.length, yes, idk, coverage: j.coverage ? summaryCoverage(j.coverage) : null };
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
/** Mean coverage over the summaries that have one, summed in draw order. */
const meanCoverage = (draw: readonly SummaryUnit[]): number | null => {
  let sum = 0;
  let count = 0;
  for (const unit of draw) {
    if (unit.coverage === null) continue;
    sum += unit.coverage;
    count++;
  }
  return count === 0 ? null : sum / count;
};

/**
 * The metrics of judged summaries, over the summaries the judge could judge; each with a 95% interval:
 * - `alignment`: share of judged summaries with no `no` claim (the seed's definition; a summary
 *   with zero claims counts as aligned and also in `empty_summaries`) — Wilson interval;
 * - `claim_support` (yes / all verdicts) and `idk_rate` (idk / all verdicts) — claim-level shares;
 * - `richness`: mean claims per judged summary;
 * - `coverage`: mean over summaries of the share of article-answerable questions the summary
 *   answers (summaries without such a question, or without a coverage check, left out);
 * claim-level shares and means get a seeded percentile bootstrap over **summaries** (the claims of
 * one summary are not independent). `judged`, `no_verdict` (the judge gave no usable answer), `n`
 * (their sum) and `errors` (the summary or a judge call failed) are counts, outside every denominator.
 * With human reviews (`ScoredSample.review`): a reviewed summary is aligned when the reviewer
 * passed it (`judged` counts it, a no verdict reviewed included); the claims and coverage of
 * summaries whose alignment a reviewer overruled are left out of the claim-level figures.
 */
function summaryMetrics(rows: readonly ScoredSample[], label: string): Record<string, MetricValue> {
  const { decided, noVerdict, errors } = judgedRows(rows, judgmentOf, isAligned);
  const judged = standingJudgments(decided);
  const aligned = decided.filter((d) => d.pass).length;
  const units = judged.map(unitOf);
  const boot = (name: string, statistic: (draw: readonly SummaryUnit[]) => number | null): MetricValue =>
    interval(bootstrapInterval(units, statistic, { rng: rngFor(BOOTSTRAP_SEED, `${label}:${name}`) }));
  const coverage = meanCoverage(units);
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
    coverage_ci95: coverage === null ? null : boot('coverage', meanCoverage),
    empty_summaries: judged.filter((j) => j.claims.length === 0).length,
    judged: decided.length,
    no_verdict: noVerdict,
    // Summaries the judge was asked about (judged + no verdict): the size beside the counts.
    n: decided.length + noVerdict,
    errors,
  };
}

/** {@link summaryMetrics} overall and per category (`by_category`, categories in name order). */
export function summariesMetrics(rows: Iterable<ScoredSample>): Metrics {
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
    ...summaryMetrics(all, 'all'),
    ...(categories.length > 0 ? { by_category: Object.fromEntries(categories.map((c) => [c, summaryMetrics(byCategory.get(c) ?? [], `category:${c}`)])) } : {}),
  };
}
