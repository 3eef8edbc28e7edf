import type { MetricDeclaration } from '../task.js';

// What each metric of the cases task means (see metrics.ts): rates over the decided cases; no verdicts and errors counted apart.

/** The figures of one expectation kind in `by_expectation`. */
const EXPECTATION_TALLY: readonly MetricDeclaration[] = [
  { name: 'pass', unit: 'count', direction: 'higher', interval: 'none', meaning: 'expectations of this kind that passed' },
  { name: 'fail', unit: 'count', direction: 'lower', interval: 'none', meaning: 'expectations of this kind that failed' },
  { name: 'no_verdict', unit: 'count', direction: 'lower', interval: 'none', meaning: 'expectations of this kind not decided (a rubric the judge could not decide)' },
  { name: 'n', unit: 'count', direction: 'none', interval: 'none', meaning: 'expectations of this kind in the scored cases' },
  { name: 'pass_rate', unit: 'share', direction: 'higher', interval: 'none', meaning: 'share of the decided expectations of this kind that passed' },
];

export const CASES_METRICS: readonly MetricDeclaration[] = [
  { name: 'pass_rate', unit: 'share', direction: 'higher', interval: 'wilson', meaning: 'share of decided cases (pass or fail) whose every expectation passed' },
  { name: 'pass', unit: 'count', direction: 'higher', interval: 'none', meaning: 'cases whose every expectation passed' },
  { name: 'fail', unit: 'count', direction: 'lower', interval: 'none', meaning: 'cases with at least one expectation failed' },
  { name: 'no_verdict', unit: 'count', direction: 'lower', interval: 'none', meaning: 'cases with nothing failed but a rubric the judge could not decide' },
  { name: 'n', unit: 'count', direction: 'none', interval: 'none', meaning: 'scored cases: pass + fail + no verdict' },
  { name: 'errors', unit: 'count', direction: 'lower', interval: 'none', meaning: 'cases that ended in error (the model or a judge call failed)' },
  { name: 'empty_answers', unit: 'count', direction: 'lower', interval: 'none', meaning: 'cases whose answer was empty (no text, no tool call): each fails, whatever it expects' },
  {
    name: 'by_expectation',
    unit: 'share',
    direction: 'higher',
    interval: 'none',
    meaning: 'per expectation kind: how many passed, failed or had no verdict, and the pass rate over the decided ones',
    parts: EXPECTATION_TALLY,
  },
];
