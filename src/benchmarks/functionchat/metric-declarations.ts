import type { MetricDeclaration } from '../task.js';

// What each FunctionChat metric means (see metrics.ts). Rates are over the scored items; a no
// verdict counts as not passed and is counted apart; errors (failed calls) are outside them. The
// overall pass rate (single-call, call decision) and dialog's micro rate carry a Wilson 95%
// interval of their counts (`<name>_ci95`); the breakdowns' tallies and dialog's per-type and
// macro rates have none (the report's charts make Wilson intervals of the tallies' counts).

const TALLY: readonly MetricDeclaration[] = [
  { name: 'pass', unit: 'count', direction: 'higher', interval: 'none', meaning: 'items passed (an exact call, or the judge’s pass)' },
  { name: 'pass_rate', unit: 'share', direction: 'higher', interval: 'none', meaning: 'share of scored items passed' },
  { name: 'no_verdict', unit: 'count', direction: 'lower', interval: 'none', meaning: 'scored items without a verdict (a text only a judge can grade, or a judge that gave no readable answer)' },
  { name: 'n', unit: 'count', direction: 'none', interval: 'none', meaning: 'scored items: the denominator of the rates' },
];

const ERRORS: MetricDeclaration = {
  name: 'errors',
  unit: 'count',
  direction: 'lower',
  interval: 'none',
  meaning: 'not sample errors: how the scored call items went wrong, by kind (no_call = answered in text where a call was due); items = call items with any',
};

/** A breakdown whose categories each hold the tally. */
const tallyBy = (name: string, meaning: string): MetricDeclaration => ({ name, unit: 'share', direction: 'higher', interval: 'none', meaning, parts: TALLY });

/** The tally at the top: its pass rate with its interval (a breakdown's parts keep the bare tally). */
const OVERALL_TALLY: readonly MetricDeclaration[] = TALLY.map((d) => (d.name === 'pass_rate' ? { ...d, interval: 'wilson' } : d));

export const SINGLECALL_METRICS: readonly MetricDeclaration[] = [
  ...OVERALL_TALLY,
  tallyBy('by_tools_type', 'the tally per tool list offered: the exact tool alone, or with 4 or 8 random or close (similar) tools'),
  ERRORS,
];

export const DIALOG_METRICS: readonly MetricDeclaration[] = [
  { name: 'pass_rate', unit: 'share', direction: 'higher', interval: 'none', meaning: 'share of scored turns passed, per type of output due (a call, a completion, a slot question, a relevance answer)' },
  { name: 'micro', unit: 'share', direction: 'higher', interval: 'wilson', meaning: 'passes over every scored turn' },
  { name: 'macro', unit: 'share', direction: 'higher', interval: 'none', meaning: 'mean of the per-output-type pass rates (types with scored turns)' },
  ...TALLY.filter((d) => d.name !== 'pass_rate'),
  tallyBy('by_type_of_output', 'the full tally per type of output due'),
  ERRORS,
];

export const CALLDECISION_METRICS: readonly MetricDeclaration[] = [
  ...OVERALL_TALLY,
  tallyBy('by_category', 'the tally per decision due: CALL a tool, REJECT the request, ask for all or some missing slots'),
  ERRORS,
];
