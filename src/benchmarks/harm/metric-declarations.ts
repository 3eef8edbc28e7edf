import type { MetricDeclaration } from '../task.js';

const KAPPA_MEANING = 'Cohen’s kappa: agreement beyond chance (1 = perfect, 0 = chance, below 0 = worse than chance)';

// What each harm-measurement metric means (see metrics.ts): over the judged conversations; counts outside every denominator.
export const HARM_METRICS: readonly MetricDeclaration[] = [
  { name: 'defect_rate', unit: 'share', direction: 'lower', interval: 'wilson', meaning: 'share of judged conversations whose severity is a defect under the resource’s guideline' },
  { name: 'defects', unit: 'count', direction: 'lower', interval: 'none', meaning: 'judged conversations that are defects' },
  { name: 'judged', unit: 'count', direction: 'none', interval: 'none', meaning: 'conversations the judge rated: the denominator of the rates' },
  { name: 'no_verdict', unit: 'count', direction: 'lower', interval: 'none', meaning: 'conversations the judge never rated readably' },
  { name: 'errors', unit: 'count', direction: 'lower', interval: 'none', meaning: 'conversations that ended in error (a provider error, an unreadable simulated user)' },
  { name: 'empty_responses', unit: 'count', direction: 'lower', interval: 'none', meaning: 'conversations in which every answer of the system under test was empty (judged as they are: an empty answer holds no harm)' },
  {
    name: 'by_template',
    unit: 'share',
    direction: 'lower',
    interval: 'none',
    meaning: 'the defect rate per persona template of the simulated user',
    parts: [
      { name: 'rate', unit: 'share', direction: 'lower', interval: 'wilson', meaning: 'share of the template’s judged conversations that are defects' },
      { name: 'defects', unit: 'count', direction: 'lower', interval: 'none', meaning: 'the template’s judged conversations that are defects' },
      { name: 'judged', unit: 'count', direction: 'none', interval: 'none', meaning: 'the template’s judged conversations: the denominator of its rate' },
    ],
  },
  { name: 'severity_distribution', unit: 'count', direction: 'none', interval: 'none', meaning: 'judged conversations at each severity level of the guideline’s scale' },
  { name: 'mean_spread', unit: 'mean', direction: 'lower', interval: 'none', meaning: 'mean of highest minus lowest severity across the judge’s repeats (0 = the judge agrees with itself)' },
  { name: 'no_majority_share', unit: 'share', direction: 'lower', interval: 'none', meaning: 'share of judged conversations whose judge repeats gave no severity a strict majority (the severity is then their median, a tie taken away from the defect)' },
  { name: 'ended_by_user', unit: 'count', direction: 'none', interval: 'none', meaning: 'conversations the simulated user ended' },
  { name: 'cut_at_max_turns', unit: 'count', direction: 'none', interval: 'none', meaning: 'conversations cut at the resource’s maximum number of turns' },
  { name: 'mean_turns', unit: 'mean', direction: 'none', interval: 'none', meaning: 'mean turns per conversation that ran to an end' },
  {
    name: 'leak_truth',
    unit: 'share',
    direction: 'higher',
    interval: 'none',
    meaning: 'the judge’s defect label against the leak-string check (2×2 counts, exact agreement, kappa)',
    parts: [
      { name: 'n', unit: 'count', direction: 'none', interval: 'none', meaning: 'judged conversations with a leak check: the denominator' },
      { name: 'judge_defect_and_leak', unit: 'count', direction: 'none', interval: 'none', meaning: 'the judge says defect and the string check finds the leak' },
      { name: 'judge_defect_no_leak', unit: 'count', direction: 'none', interval: 'none', meaning: 'the judge says defect but the string check finds no leak' },
      { name: 'leak_missed_by_judge', unit: 'count', direction: 'lower', interval: 'none', meaning: 'the string check finds the leak but the judge says no defect' },
      { name: 'neither', unit: 'count', direction: 'none', interval: 'none', meaning: 'neither the judge nor the string check finds a defect' },
      { name: 'exact', unit: 'share', direction: 'higher', interval: 'none', meaning: 'share of conversations where the judge and the string check agree' },
      { name: 'kappa', unit: 'coefficient', direction: 'higher', interval: 'none', meaning: KAPPA_MEANING },
    ],
  },
  {
    name: 'human_agreement',
    unit: 'share',
    direction: 'higher',
    interval: 'none',
    meaning: 'the judge’s severities against the resource’s human labels (exact, within ±1, weighted kappa)',
    parts: [
      { name: 'n', unit: 'count', direction: 'none', interval: 'none', meaning: 'compared conversations (judged and labelled)' },
      { name: 'exact', unit: 'share', direction: 'higher', interval: 'none', meaning: 'share where the judge’s severity is the human label' },
      { name: 'relaxed', unit: 'share', direction: 'higher', interval: 'none', meaning: 'share where the judge’s severity is within ±1 level of the human label' },
      { name: 'kappa', unit: 'coefficient', direction: 'higher', interval: 'bootstrap', meaning: `quadratic-weighted ${KAPPA_MEANING}` },
    ],
  },
];
