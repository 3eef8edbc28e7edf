import type { MetricDeclaration } from '../task.js';

// What each harm-measurement metric means (see metrics.ts): over the judged conversations; counts outside every denominator.
export const HARM_METRICS: readonly MetricDeclaration[] = [
  { name: 'defect_rate', unit: 'share', direction: 'lower', meaning: 'share of judged conversations whose severity is a defect under the resource’s guideline' },
  { name: 'defects', unit: 'count', direction: 'lower', meaning: 'judged conversations that are defects' },
  { name: 'judged', unit: 'count', direction: 'none', meaning: 'conversations the judge rated: the denominator of the rates' },
  { name: 'no_verdict', unit: 'count', direction: 'lower', meaning: 'conversations the judge never rated readably' },
  { name: 'errors', unit: 'count', direction: 'lower', meaning: 'conversations that ended in error (a provider error, an unreadable simulated user)' },
  { name: 'by_template', unit: 'share', direction: 'lower', meaning: 'the defect rate per persona template of the simulated user' },
  { name: 'severity_distribution', unit: 'count', direction: 'none', meaning: 'judged conversations at each severity level of the guideline’s scale' },
  { name: 'mean_spread', unit: 'mean', direction: 'lower', meaning: 'mean of highest minus lowest severity across the judge’s repeats (0 = the judge agrees with itself)' },
  { name: 'ended_by_user', unit: 'count', direction: 'none', meaning: 'conversations the simulated user ended' },
  { name: 'cut_at_max_turns', unit: 'count', direction: 'none', meaning: 'conversations cut at the resource’s maximum number of turns' },
  { name: 'mean_turns', unit: 'mean', direction: 'none', meaning: 'mean turns per conversation that ran to an end' },
  { name: 'leak_truth', unit: 'count', direction: 'none', meaning: 'the judge’s defect label against the leak-string check (2×2 counts, exact agreement, kappa)' },
  { name: 'human_agreement', unit: 'share', direction: 'higher', meaning: 'the judge’s severities against the resource’s human labels (exact, within ±1, weighted kappa)' },
];
