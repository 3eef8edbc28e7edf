import type { MetricDeclaration } from '../task.js';

// What each judged-summaries metric means (see metrics.ts): each decided by the judge steps it
// needs (claims and verdicts; coverage), each share and mean with a 95% interval (Wilson for
// alignment, a seeded bootstrap over summaries for the claim-level figures and coverage); counts
// outside every denominator.
const PER_SUMMARY_SET: readonly MetricDeclaration[] = [
  { name: 'alignment', unit: 'share', direction: 'higher', interval: 'wilson', meaning: 'share of judged summaries with at least one claim and no claim the article contradicts (an empty summary fails)' },
  { name: 'claim_support', unit: 'share', direction: 'higher', interval: 'bootstrap', meaning: 'share of all judged claims the article supports (pooled over every summary’s claims, not a per-summary mean)' },
  { name: 'idk_rate', unit: 'share', direction: 'lower', interval: 'bootstrap', meaning: 'share of all judged claims the judge could not check against the article' },
  { name: 'richness', unit: 'mean', direction: 'none', interval: 'bootstrap', meaning: 'mean number of claims per judged summary (how much it says, not how well)' },
  { name: 'coverage', unit: 'share', direction: 'higher', interval: 'bootstrap', meaning: 'mean share of the article’s coverage questions the summary answers, over summaries with a usable coverage check' },
  { name: 'coverage_no_verdict', unit: 'count', direction: 'lower', interval: 'none', meaning: 'summaries whose coverage step gave no usable answer (their claims still count); only when coverage is on' },
  { name: 'empty_summaries', unit: 'count', direction: 'lower', interval: 'none', meaning: 'judged summaries with no claim at all, an empty answer included (counted as not aligned)' },
  { name: 'judged', unit: 'count', direction: 'none', interval: 'none', meaning: 'summaries the judge judged: the denominator of the rates' },
  { name: 'no_verdict', unit: 'count', direction: 'lower', interval: 'none', meaning: 'summaries whose claims or verdicts the judge gave no usable answer for (alignment and the claim figures have none)' },
  { name: 'n', unit: 'count', direction: 'none', interval: 'none', meaning: 'summaries the judge was asked about (judged + no verdict)' },
  { name: 'errors', unit: 'count', direction: 'lower', interval: 'none', meaning: 'summaries that ended in error (the summary or a judge call failed)' },
];

export const SUMMARIES_METRICS: readonly MetricDeclaration[] = [
  ...PER_SUMMARY_SET,
  { name: 'by_category', unit: 'share', direction: 'higher', interval: 'none', meaning: 'every metric above per article category (sub-folder)', parts: PER_SUMMARY_SET },
];
