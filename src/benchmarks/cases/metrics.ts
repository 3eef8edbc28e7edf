import type { Score } from '../../core/index.js';
import { wilsonInterval } from '../../metrics/intervals.js';
import { ratio } from '../../metrics/rates.js';
import { judgedRows } from '../judged-rows.js';
import type { MetricValue, Metrics, ScoredSample } from '../task.js';
import { EXPECTATION_KINDS, type ExpectationResult } from './expectation.js';

/** The case verdict a score holds: pass or fail, or undefined for no verdict. */
const verdictOf = (score: Score): boolean | undefined => (typeof score.value === 'boolean' ? score.value : undefined);

/** The expectation outcomes a score stores (`metadata.expectations`); none for a score without them. */
export function expectationResultsOf(score: Score | null | undefined): readonly ExpectationResult[] {
  const stored = score?.metadata?.['expectations'];
  return Array.isArray(stored) ? (stored as ExpectationResult[]) : [];
}

/**
 * The cases task's metrics: `pass_rate` — the share of decided cases (pass or fail) that passed,
 * with a Wilson 95% interval; `pass`, `fail`, `no_verdict` (a rubric the judge could not decide,
 * and nothing failed), `n` (their sum) and `errors` (the model or a judge call failed) are counts,
 * no verdicts and errors outside the rate's denominator. A human review (`ScoredSample.review`)
 * decides its case. `empty_answers`: the scored cases whose answer was empty (each a fail, see
 * `isEmptyAnswer`). `by_expectation`: per kind, how the expectations of the scored cases went.
 */
export function casesMetrics(rows: Iterable<ScoredSample>): Metrics {
  const all = [...rows];
  const { decided, noVerdict, errors } = judgedRows(all, verdictOf, (pass) => pass);
  const pass = decided.filter((d) => d.pass).length;
  const ci = wilsonInterval(pass, decided.length);
  return {
    pass_rate: ratio(pass, decided.length),
    pass_rate_ci95: ci && { low: ci.low, high: ci.high },
    pass,
    fail: decided.length - pass,
    no_verdict: noVerdict,
    n: decided.length + noVerdict,
    errors,
    empty_answers: all.filter((row) => row.score?.metadata?.['emptyAnswer'] === true).length,
    by_expectation: byExpectation(all),
  };
}

/** Per expectation kind (those that occur, in the docs' order): `{pass, fail, no_verdict, n, pass_rate}` over the scored cases. */
function byExpectation(rows: readonly ScoredSample[]): Record<string, MetricValue> {
  const tallies = new Map<string, { pass: number; fail: number; no_verdict: number }>();
  for (const row of rows) {
    for (const r of expectationResultsOf(row.score)) {
      const t = tallies.get(r.kind) ?? { pass: 0, fail: 0, no_verdict: 0 };
      if (r.outcome === 'pass') t.pass++;
      else if (r.outcome === 'fail') t.fail++;
      else t.no_verdict++;
      tallies.set(r.kind, t);
    }
  }
  const out: Record<string, MetricValue> = {};
  for (const kind of EXPECTATION_KINDS) {
    const t = tallies.get(kind);
    if (!t) continue;
    out[kind] = { ...t, n: t.pass + t.fail + t.no_verdict, pass_rate: ratio(t.pass, t.pass + t.fail) };
  }
  return out;
}
