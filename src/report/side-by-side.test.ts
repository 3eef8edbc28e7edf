import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunSummary } from '../analysis/summary.js';
import { SUMMARIES_METRICS } from '../benchmarks/summaries/metric-declarations.js';
import { renderSummary } from './console.js';
import { sideBySideLines } from './side-by-side.js';

const counts = { samples: 2, done: 2, errors: 0, pending: 0, no_verdict: 0, manual: 0, cached: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0, errors_by_kind: {} };

function summary(models: RunSummary['models']): RunSummary {
  return { run: 'r1', task: 'summaries/alignment', status: 'finished', models, cost_by_role: [] };
}

test('two models: one row per top-level number, a column per model, intervals beside their metric, a dash where a model lacks it', () => {
  const lines = sideBySideLines(
    summary({
      'openai:a': { metrics: { alignment: 0.5, alignment_ci95: { low: 0.25, high: 0.75 }, richness: 8.5, judged: 40, by_category: { tech: { alignment: 1 } } }, counts },
      'openai:b': { metrics: { alignment: 0.75, alignment_ci95: null, richness: 9.25, judged: 38, coverage: 0.6 }, counts },
    }),
    SUMMARIES_METRICS,
  );
  assert.deepEqual(lines, [
    'models side by side (95% interval where the task gives one):',
    '  metric                    openai:a  openai:b',
    '  alignment  50.00% [25.00%, 75.00%]    75.00%',
    '  richness                       8.5      9.25',
    '  judged                          40        38',
    '  coverage                         —    60.00%',
  ]);
});

test('the console summary shows the side-by-side table only when a run has more than one model', () => {
  const one = renderSummary(summary({ 'openai:a': { metrics: { alignment: 0.5 }, counts } }), SUMMARIES_METRICS);
  assert.ok(!one.includes('side by side'));
  const two = renderSummary(summary({ 'openai:a': { metrics: { alignment: 0.5 }, counts }, 'openai:b': { metrics: { alignment: 1 }, counts } }), SUMMARIES_METRICS);
  assert.match(two, /models side by side/);
  // Before the per-model blocks.
  assert.ok(two.indexOf('side by side') < two.indexOf('\nopenai:a\n'));
});
