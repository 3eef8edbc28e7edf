import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MetricDeclaration } from '../benchmarks/task.js';
import type { SuiteDeclaration } from '../config/index.js';
import { evaluateGates } from './evaluate-gates.js';
import { taskCatalog } from './task-catalog.js';
import { suiteEntryGates, suiteRegressionGates, type GatedMetric, type GatedSuite } from './suite-gates.js';

const METRICS: Record<string, GatedMetric[]> = {
  cases: [{ name: 'pass_rate', unit: 'share', direction: 'higher' }],
  'harm/system-prompt-leakage': [{ name: 'defect_rate', unit: 'share', direction: 'lower' }],
  'quality/groundedness': [{ name: 'mean_score', unit: 'mean', direction: 'higher' }],
};
const SUITE: GatedSuite = {
  models: ['bot', 'openai:gpt-4o-mini'],
  tasks: [
    { task: 'cases', gates: { pass_rate: { min: 0.95 } } },
    { task: 'harm/system-prompt-leakage', gates: { defect_rate: { max: 0.05, require: 'non-inferior' } } },
    { task: 'cases' },
    { task: 'quality/groundedness', gates: { mean_score: { min: 4 } } },
  ],
  regression: { margin: 0.02 },
};

describe('a suite\'s gates for evaluateGates and evaluateRegression', () => {
  it('entry gates: labels, the suite\'s models, units from the declarations', () => {
    const entries = suiteEntryGates(SUITE, (task) => METRICS[task]);
    assert.deepEqual(entries.map((e) => [e.entry, e.models.length, e.units]), [
      ['cases #1', 2, { pass_rate: 'share' }],
      ['harm/system-prompt-leakage', 2, { defect_rate: 'share' }],
      ['cases #2', 2, {}],
      ['quality/groundedness', 2, { mean_score: 'mean' }],
    ]);
    // No run ended: every threshold gate of every model is inconclusive, none pass or fail.
    const results = evaluateGates([], entries);
    assert.equal(results.length, 6);
    assert.ok(results.every((r) => r.outcome === 'inconclusive'));
  });

  it('regression gates: one per gated metric, its reading, direction and the margin; non-inferior carried', () => {
    assert.deepEqual(suiteRegressionGates(SUITE, (task) => METRICS[task]).map((g) => g.gate), [
      { entry: 'cases #1', metric: 'pass_rate', unit: 'share', reading: 'pass', direction: 'higher', margin: 0.02 },
      { entry: 'harm/system-prompt-leakage', metric: 'defect_rate', unit: 'share', reading: 'pass', direction: 'lower', margin: 0.02, require: 'non-inferior' },
      { entry: 'quality/groundedness', metric: 'mean_score', unit: 'mean', reading: 'value', direction: 'higher', margin: 0.02 },
    ]);
    assert.deepEqual(suiteRegressionGates({ ...SUITE, regression: undefined }, (task) => METRICS[task]), []);
  });
});

it('takes what the config loader and the registry give, as they are (checked by the compiler)', () => {
  const fromConfig = (suite: SuiteDeclaration): GatedSuite => suite;
  const fromRegistry = (metric: MetricDeclaration): GatedMetric => metric;
  assert.equal(typeof fromConfig, 'function');
  assert.equal(typeof fromRegistry, 'function');
  assert.ok(suiteEntryGates(SUITE, taskCatalog().metricsOf).length === 4);
});
