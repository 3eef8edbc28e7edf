import type { MetricDeclaration } from '../task.js';

// What each FunctionChat metric means (see metrics.ts). Rates are over the scored items; a no
// verdict counts as not passed and is counted apart; errors (failed calls) are outside them.

const TALLY: readonly MetricDeclaration[] = [
  { name: 'pass', unit: 'count', direction: 'higher', meaning: 'items passed (an exact call, or the judge’s pass)' },
  { name: 'pass_rate', unit: 'share', direction: 'higher', meaning: 'share of scored items passed' },
  { name: 'no_verdict', unit: 'count', direction: 'lower', meaning: 'scored items without a verdict (a text only a judge can grade, or a judge that gave no readable answer)' },
  { name: 'n', unit: 'count', direction: 'none', meaning: 'scored items: the denominator of the rates' },
];

const ERRORS: MetricDeclaration = {
  name: 'errors',
  unit: 'count',
  direction: 'lower',
  meaning: 'not sample errors: how the scored call items went wrong, by kind (no_call = answered in text where a call was due); items = call items with any',
};

export const SINGLECALL_METRICS: readonly MetricDeclaration[] = [
  ...TALLY,
  { name: 'by_tools_type', unit: 'share', direction: 'higher', meaning: 'the tally per tool list offered: the exact tool alone, or with 4 or 8 random or close (similar) tools' },
  ERRORS,
];

export const DIALOG_METRICS: readonly MetricDeclaration[] = [
  { name: 'pass_rate', unit: 'share', direction: 'higher', meaning: 'share of scored turns passed, per type of output due (a call, a completion, a slot question, a relevance answer)' },
  { name: 'micro', unit: 'share', direction: 'higher', meaning: 'passes over every scored turn' },
  { name: 'macro', unit: 'share', direction: 'higher', meaning: 'mean of the per-output-type pass rates (types with scored turns)' },
  ...TALLY.filter((d) => d.name !== 'pass_rate'),
  { name: 'by_type_of_output', unit: 'share', direction: 'higher', meaning: 'the full tally per type of output due' },
  ERRORS,
];

export const CALLDECISION_METRICS: readonly MetricDeclaration[] = [
  ...TALLY,
  { name: 'by_category', unit: 'share', direction: 'higher', meaning: 'the tally per decision due: CALL a tool, REJECT the request, ask for all or some missing slots' },
  ERRORS,
];
