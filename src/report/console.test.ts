import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ModelCounts, RunSummary } from '../analysis/summary.js';
import { HARM_METRICS } from '../benchmarks/harm/metric-declarations.js';
import { renderExplain, renderSummary } from './console.js';

const counts = (noVerdict: number, manual: number): ModelCounts => ({
  samples: 10,
  done: 10,
  errors: 0,
  pending: 0,
  no_verdict: noVerdict,
  manual,
  cached: 0,
  input_tokens: 0,
  output_tokens: 0,
  cost_usd: 0,
  errors_by_kind: {},
});

const summaryWith = (c: ModelCounts): RunSummary => ({ run: 'r1', task: 'metatool/awareness', status: 'finished', models: { 'baseline:random': { metrics: {}, counts: c } }, cost_by_role: [] });

const countsLine = (c: ModelCounts): string => renderSummary(summaryWith(c), []).split('\n').find((l) => l.startsWith('  samples ')) ?? '';

test('the counts line shows the paper reading\'s manual-analysis answers as "manual N", not as no verdicts', () => {
  assert.match(countsLine(counts(4, 3)), /pending 0, no verdict 1, manual 3, cached 0;/);
  assert.match(countsLine(counts(57, 57)), /no verdict 0, manual 57,/);
});

test('the counts line of a run without manual analysis is as before', () => {
  assert.match(countsLine(counts(2, 0)), /pending 0, no verdict 2, cached 0;/);
  assert.doesNotMatch(countsLine(counts(2, 0)), /manual/);
});

test('every number is shown by its declared unit, never by its key: counts, shares, means, coefficients; a number nothing declares as it is', () => {
  const metrics = {
    defect_rate: 0.25,
    no_verdict: 1,
    mean_spread: 0.5,
    leak_truth: { n: 4, exact: 0.75, kappa: 0.24999999999999986 },
    human_agreement: { n: 3, kappa: -1e-17, kappa_ci95: { low: -0.72727, high: 0.78261 } },
    by_template: { direct: { rate: 0.5, ci95: { low: 0.1, high: 0.9 }, defects: 1, judged: 2 } },
    undeclared_rate: 0.5,
  };
  const summary: RunSummary = { run: 'r1', task: 'harm/system-prompt-leakage', status: 'finished', models: { m: { metrics, counts: counts(0, 0) } }, cost_by_role: [] };
  const lines = renderSummary(summary, HARM_METRICS).split('\n');
  assert.deepEqual(lines.slice(3, 19), [
    '  defect_rate: 25.00%',
    // A count, though no `n` sits beside it (it was once read as a share: "100.00%").
    '  no_verdict: 1',
    '  mean_spread: 0.5',
    '  leak_truth: n=4  exact=75.00%  kappa=0.250',
    '  human_agreement:',
    '    n: 3',
    '    kappa: 0.000',
    '    kappa_ci95: low=-0.727  high=0.783',
    '  by_template:',
    '    direct:',
    '      rate: 50.00%',
    '      ci95: low=10.00%  high=90.00%',
    '      defects: 1',
    '      judged: 2',
    '  undeclared_rate: 0.5',
    '  samples 10: done 10, errors 0, pending 0, no verdict 0, cached 0; tokens in 0 out 0; cost $0.0000',
  ]);
});

test('--explain: each metric’s meaning, unit, direction, interval and readings, and a breakdown’s parts under it', () => {
  const text = renderExplain([
    { name: 'csr', meaning: 'correct selection rate', unit: 'share', direction: 'higher', interval: 'none' },
    { name: 'manual', meaning: 'left to manual analysis', unit: 'count', direction: 'none', interval: 'none', readings: ['paper'] },
    ...HARM_METRICS.filter((d) => d.name === 'by_template'),
  ]);
  assert.deepEqual(text.split('\n'), [
    'what the metrics mean:',
    '  csr          correct selection rate (share, higher is better)',
    '  manual       left to manual analysis (count; --parser paper only)',
    '  by_template  the defect rate per persona template of the simulated user (share, lower is better)',
    '    rate     share of the template’s judged conversations that are defects (share, lower is better; Wilson 95% interval)',
    '    defects  the template’s judged conversations that are defects (count, lower is better)',
    '    judged   the template’s judged conversations: the denominator of its rate (count)',
  ]);
});
