import type { ChartSpec } from '../task.js';

export const GROUNDEDNESS_CHARTS: readonly ChartSpec[] = [
  {
    id: 'score-distribution',
    title: 'Groundedness scores',
    description: 'How many graded answers got each score (1 = unsupported … 5 = fully supported); no verdicts and errors counted apart.',
    metric: 'distribution',
    unit: 'count',
    scale: { min: 1, max: 5 },
  },
];
