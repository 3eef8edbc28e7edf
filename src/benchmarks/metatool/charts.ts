import type { ChartSpec } from '../task.js';

/** CSR by the 1-based position of the gold tool among the candidates (similar, scenario). */
export const CSR_BY_POSITION: ChartSpec = {
  id: 'csr-by-position',
  title: 'Correct selection rate by gold position',
  description: "Share of scored samples whose answer is the gold tool, by where the gold tool stood in the candidate list (no verdicts count as not correct; the paper reading: over the decided answers).",
  metric: 'csr_by_position',
  unit: 'share',
};

/** CSR per scenario's tool list (scenario). */
export const CSR_BY_SCENARIO: ChartSpec = {
  id: 'csr-by-scenario',
  title: 'Correct selection rate by scenario',
  description: 'Share of scored samples whose answer is the gold tool, per scenario tool list.',
  metric: 'csr_by_scenario',
  unit: 'share',
};

/** Where wrong single answers sit among the gold's nearest tools (similar). */
export const TOP_K: ChartSpec = {
  id: 'top-k',
  title: 'Wrong single answers among the gold tool’s k nearest',
  description: 'Of the wrong answers that named exactly one other tool: the share whose tool is among the gold’s 1, 3, 5 nearest tools.',
  metric: '',
  unit: 'share',
  categories: ['top1', 'top3', 'top5'],
};

/** The awareness confusion matrix ("needs a tool" is the positive class). */
export const AWARENESS_CONFUSION: ChartSpec = {
  id: 'awareness-confusion',
  title: 'Awareness: confusion matrix',
  description: 'Counts of answers by truth (rows) and answer (columns); no verdicts are in no cell (counted apart).',
  metric: 'confusion',
  unit: 'count',
  matrix: {
    rows: ['needs a tool', 'needs none'],
    columns: ['answered yes', 'answered no'],
    cells: [
      ['tp', 'fn'],
      ['fp', 'tn'],
    ],
  },
};
