import type { MetricDeclaration } from '../task.js';

// What each metric of the cases task means (see metrics.ts): rates over the decided cases; no verdicts and errors counted apart.
export const CASES_METRICS: readonly MetricDeclaration[] = [
  { name: 'pass_rate', unit: 'share', direction: 'higher', meaning: 'share of decided cases (pass or fail) whose every expectation passed' },
  { name: 'pass', unit: 'count', direction: 'higher', meaning: 'cases whose every expectation passed' },
  { name: 'fail', unit: 'count', direction: 'lower', meaning: 'cases with at least one expectation failed' },
  { name: 'no_verdict', unit: 'count', direction: 'lower', meaning: 'cases with nothing failed but a rubric the judge could not decide' },
  { name: 'n', unit: 'count', direction: 'none', meaning: 'scored cases: pass + fail + no verdict' },
  { name: 'errors', unit: 'count', direction: 'lower', meaning: 'cases that ended in error (the model or a judge call failed)' },
  { name: 'by_expectation', unit: 'count', direction: 'none', meaning: 'per expectation kind: how many passed, failed or had no verdict, and its pass rate over the decided ones' },
];
