import type { MetricDeclaration } from '../task.js';

// What each groundedness metric means (see metrics.ts): over the graded answers; counts outside every denominator.
export const GROUNDEDNESS_METRICS: readonly MetricDeclaration[] = [
  { name: 'defect_rate', unit: 'share', direction: 'lower', interval: 'wilson', meaning: 'share of graded answers scored below --threshold (not grounded enough in their context)' },
  { name: 'mean_score', unit: 'mean', direction: 'higher', interval: 'bootstrap', meaning: 'mean groundedness score, 1 (unsupported) … 5 (every statement supported)' },
  { name: 'distribution', unit: 'count', direction: 'none', interval: 'none', meaning: 'graded answers at each score (the judge’s repeats combined: a strict majority, else the median, a tie taken away from the defect)' },
  { name: 'mean_spread', unit: 'mean', direction: 'lower', interval: 'none', meaning: 'mean of highest minus lowest score across the judge’s repeats (0 = the judge agrees with itself)' },
  { name: 'no_majority_share', unit: 'share', direction: 'lower', interval: 'none', meaning: 'share of graded answers whose judge repeats gave no score a strict majority (the score is then their median, a tie taken away from the defect)' },
  { name: 'empty_answers', unit: 'count', direction: 'lower', interval: 'none', meaning: 'graded answers that were empty: graded 1 (a defect) without asking the judge' },
  { name: 'graded', unit: 'count', direction: 'none', interval: 'none', meaning: 'answers the judge graded: the denominator of the rates' },
  { name: 'no_verdict', unit: 'count', direction: 'lower', interval: 'none', meaning: 'answers without a grade (too few readable repeats)' },
  { name: 'n', unit: 'count', direction: 'none', interval: 'none', meaning: 'answers the judge was asked about (graded + no verdict)' },
  { name: 'errors', unit: 'count', direction: 'lower', interval: 'none', meaning: 'answers that ended in error (the answer or a judge call failed)' },
];
