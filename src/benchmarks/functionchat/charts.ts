import type { ChartSpec } from '../task.js';
import { ERROR_CATEGORIES } from './taxonomy.js';

/** A tally's pass rate (`{pass, pass_rate, no_verdict, n}`) with a Wilson 95% interval from its counts. */
const passRate = (id: string, title: string, metric: string, description: string): ChartSpec => ({
  id,
  title,
  description: `${description} No verdicts count as not passed; Wilson 95% intervals from the pass and item counts.`,
  metric,
  value: 'pass_rate',
  interval: { successes: 'pass', n: 'n' },
  unit: 'share',
});

/** The error taxonomy of the call items that were not an exact match (an item may have several). */
export const ERROR_TAXONOMY: ChartSpec = {
  id: 'error-taxonomy',
  title: 'Tool-call error taxonomy',
  description: 'Call items that were not an exact match, by error category (an item with several errors counts in each).',
  metric: 'errors',
  unit: 'count',
  categories: ERROR_CATEGORIES,
};

export const SINGLECALL_CHARTS: readonly ChartSpec[] = [
  passRate('pass-by-tools-type', 'Pass rate by tool list', 'by_tools_type', 'Per tool-list type (the exact tool, 4 or 8 random or close tools).'),
  ERROR_TAXONOMY,
];

export const DIALOG_CHARTS: readonly ChartSpec[] = [
  passRate('pass-by-output-type', 'Pass rate by output type', 'by_type_of_output', 'Per type of the expected output (call, completion, slot, relevance).'),
  ERROR_TAXONOMY,
];

export const CALLDECISION_CHARTS: readonly ChartSpec[] = [
  passRate('pass-by-category', 'Pass rate by category', 'by_category', 'Per call-decision category (call, reject, ask for all or some slots).'),
  ERROR_TAXONOMY,
];
