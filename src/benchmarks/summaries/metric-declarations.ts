import type { MetricDeclaration } from '../task.js';

// What each judged-summaries metric means (see metrics.ts): over the summaries the judge could
// judge, each share and mean with a 95% interval (Wilson for alignment, a seeded bootstrap over
// summaries for the claim-level figures); counts outside every denominator.
const PER_SUMMARY_SET: readonly MetricDeclaration[] = [
  { name: 'alignment', unit: 'share', direction: 'higher', interval: 'wilson', meaning: 'share of judged summaries with no claim the judge found unsupported by the article' },
  { name: 'claim_support', unit: 'share', direction: 'higher', interval: 'bootstrap', meaning: 'share of all judged claims the article supports' },
  { name: 'idk_rate', unit: 'share', direction: 'lower', interval: 'bootstrap', meaning: 'share of all judged claims the judge could not check against the article' },
  { name: 'richness', unit: 'mean', direction: 'none', interval: 'bootstrap', meaning: 'mean number of claims per judged summary (how much it says, not how well)' },
  { name: 'coverage', unit: 'share', direction: 'higher', interval: 'bootstrap', meaning: 'mean share of the article’s coverage questions the summary answers' },
  { name: 'empty_summaries', unit: 'count', direction: 'lower', interval: 'none', meaning: 'judged summaries with no claim at all (counted as aligned)' },
  { name: 'judged', unit: 'count', direction: 'none', interval: 'none', meaning: 'summaries the judge judged: the denominator of the rates' },
  { name: 'no_verdict', unit: 'count', direction: 'lower', interval: 'none', meaning: 'summaries the judge gave no usable answer for' },
  { name: 'n', unit: 'count', direction: 'none', interval: 'none', meaning: 'summaries the judge was asked about (judged + no verdict)' },
  { name: 'errors', unit: 'count', direction: 'lower', interval: 'none', meaning: 'summaries that ended in error (the summary or a judge call failed)' },
];

export const SUMMARIES_METRICS: readonly MetricDeclaration[] = [
  ...PER_SUMMARY_SET,
  { name: 'by_category', unit: 'share', direction: 'higher', interval: 'none', meaning: 'every metric above per article category (sub-folder)', parts: PER_SUMMARY_SET },
];
