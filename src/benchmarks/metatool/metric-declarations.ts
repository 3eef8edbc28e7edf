import type { MetricDeclaration } from '../task.js';

// What each MetaTool metric means (see metrics.ts for how each is counted). Rates are over the
// scored samples (strict reading) or the decided ones (`--parser paper`, which reports `manual`
// and `decided` in place of `no_verdict` and `hallucinated`); errors are outside every
// denominator. Each rate that is a share of its own rows (accuracy, precision, recall, csr and
// the multi-tool csr_*, no_verdict, hallucinated) carries a Wilson 95% interval of its counts
// (`<name>_ci95`); F1, the breakdowns and the top-k error analysis have none.

const PAPER_COUNTS: readonly MetricDeclaration[] = [
  { name: 'manual', unit: 'count', direction: 'none', interval: 'none', readings: ['paper'], meaning: 'answers the paper’s reading (--parser paper) leaves to manual analysis: neither pass nor fail, outside the rates' },
  { name: 'decided', unit: 'count', direction: 'none', interval: 'none', readings: ['paper'], meaning: 'answers the paper’s reading could decide: the denominator of its rates' },
];

const NO_VERDICT: MetricDeclaration = {
  name: 'no_verdict',
  unit: 'share',
  direction: 'lower',
  interval: 'wilson',
  readings: ['strict'],
  meaning: 'share of scored answers that could not be read as an answer (counted as not correct)',
};
const HALLUCINATED: MetricDeclaration = { name: 'hallucinated', unit: 'share', direction: 'lower', interval: 'wilson', readings: ['strict'], meaning: 'share of scored answers naming a tool that was not in the list shown' };
const CSR: MetricDeclaration = { name: 'csr', unit: 'share', direction: 'higher', interval: 'wilson', meaning: 'correct selection rate: share of scored answers that chose exactly the gold tool' };

export const AWARENESS_METRICS: readonly MetricDeclaration[] = [
  { name: 'accuracy', unit: 'share', direction: 'higher', interval: 'wilson', meaning: 'share of answers whose yes/no (does this query need a tool?) matches the label' },
  { name: 'precision', unit: 'share', direction: 'higher', interval: 'wilson', meaning: 'of the queries answered "needs a tool", the share that do' },
  { name: 'recall', unit: 'share', direction: 'higher', interval: 'wilson', meaning: 'of the queries that need a tool, the share answered "needs a tool"' },
  { name: 'f1', unit: 'share', direction: 'higher', interval: 'none', meaning: 'harmonic mean of precision and recall' },
  { ...NO_VERDICT, meaning: 'share of answers that were neither yes nor no (counted as wrong in accuracy)' },
  { name: 'confusion', unit: 'count', direction: 'none', interval: 'none', meaning: 'answers by outcome: tp/fn (needs a tool, said yes/no), fp/tn (needs none, said yes/no), and no verdict' },
  ...PAPER_COUNTS,
];

export const RELIABILITY_METRICS: readonly MetricDeclaration[] = [
  { ...CSR, meaning: 'share of scored answers that chose no tool: none of the tools shown fits the query, so None is the right answer' },
  NO_VERDICT,
  HALLUCINATED,
  ...PAPER_COUNTS,
];

const BY_POSITION: MetricDeclaration = { name: 'csr_by_position', unit: 'share', direction: 'higher', interval: 'none', meaning: 'correct selection rate by where the gold tool sat in the list shown (1 = first)' };

export const SIMILAR_METRICS: readonly MetricDeclaration[] = [
  CSR,
  NO_VERDICT,
  HALLUCINATED,
  BY_POSITION,
  ...[1, 3, 5].map(
    (k): MetricDeclaration => ({
      name: `top${k}`,
      unit: 'share',
      direction: 'none',
      interval: 'none',
      meaning: `error analysis, not an accuracy: of the wrong single-tool answers, the share whose tool is among the gold tool’s ${k === 1 ? 'nearest other tool' : `${k} nearest other tools`}`,
    }),
  ),
  ...PAPER_COUNTS,
];

export const SCENARIO_METRICS: readonly MetricDeclaration[] = [
  CSR,
  NO_VERDICT,
  HALLUCINATED,
  BY_POSITION,
  { name: 'csr_by_scenario', unit: 'share', direction: 'higher', interval: 'none', meaning: 'correct selection rate per scenario (the tool list of one kind of user)' },
  ...PAPER_COUNTS,
];

export const MULTI_METRICS: readonly MetricDeclaration[] = [
  { name: 'csr_2of2', unit: 'share', direction: 'higher', interval: 'wilson', meaning: '"at most two" queries: share answered with exactly both gold tools' },
  { name: 'csr_1of1', unit: 'share', direction: 'none', interval: 'wilson', meaning: '"at most two" queries: share answered with one tool, a gold one' },
  { name: 'csr_1of2', unit: 'share', direction: 'none', interval: 'wilson', meaning: '"at most two" queries: share answered with two tools, exactly one of them gold' },
  { name: 'csr_must2', unit: 'share', direction: 'higher', interval: 'wilson', meaning: '"must choose two" queries: share answered with exactly both gold tools' },
  NO_VERDICT,
  HALLUCINATED,
  ...PAPER_COUNTS,
];
