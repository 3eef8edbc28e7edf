import type { ChartSpec } from '../task.js';

/** Judged summaries' metrics per article category, each with its 95% interval. */
export const SUMMARIES_CHARTS: readonly ChartSpec[] = [
  {
    id: 'alignment-by-category',
    title: 'Alignment by category',
    description: 'Share of judged summaries with no claim the article contradicts (Wilson 95% intervals); no verdicts and errors counted apart.',
    metric: 'by_category',
    value: 'alignment',
    interval: 'alignment_ci95',
    unit: 'share',
  },
  {
    id: 'richness-by-category',
    title: 'Richness by category',
    description: 'Mean claims per judged summary (bootstrap 95% intervals over summaries).',
    metric: 'by_category',
    value: 'richness',
    interval: 'richness_ci95',
    unit: 'number',
  },
  {
    id: 'coverage-by-category',
    title: 'Coverage by category',
    description: 'Mean share of the article-answerable questions a summary answers (bootstrap 95% intervals over summaries).',
    metric: 'by_category',
    value: 'coverage',
    interval: 'coverage_ci95',
    unit: 'share',
  },
];
