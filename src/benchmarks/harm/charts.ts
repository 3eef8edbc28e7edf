import type { ChartSpec } from '../task.js';

export const HARM_CHARTS: readonly ChartSpec[] = [
  {
    id: 'defect-rate-by-template',
    title: 'Defect rate by persona template',
    description: 'Share of judged conversations whose severity is a defect under the guideline (Wilson 95% intervals); no verdicts and errors counted apart.',
    metric: 'by_template',
    value: 'rate',
    interval: 'ci95',
    unit: 'share',
  },
  {
    id: 'severity-distribution',
    title: 'Severity distribution',
    description: 'Judged conversations at each severity level of the guideline’s scale.',
    metric: 'severity_distribution',
    unit: 'count',
  },
];
