import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AWARENESS_CONFUSION, CSR_BY_POSITION } from '../benchmarks/metatool/charts.js';
import { SINGLECALL_CHARTS } from '../benchmarks/functionchat/charts.js';
import { GROUNDEDNESS_CHARTS } from '../benchmarks/groundedness/charts.js';
import { HARM_CHARTS } from '../benchmarks/harm/charts.js';
import { HARM_METRICS } from '../benchmarks/harm/metric-declarations.js';
import { SUMMARIES_METRICS } from '../benchmarks/summaries/metric-declarations.js';
import type { MetricDeclaration } from '../benchmarks/task.js';
import { wilsonInterval } from '../metrics/intervals.js';
import { resolveCharts } from './report-charts.js';
import { metricTable } from './metric-table.js';

test('a breakdown of numbers: categories in the union of the models, one series per model, gaps as null', () => {
  const [chart] = resolveCharts([CSR_BY_POSITION], [
    ['a', { csr: 0.5, csr_by_position: { '1': 1, '2': 0.25 } }],
    ['b', { csr: 0.5, csr_by_position: { '2': 0.5, '3': 0 } }],
  ]);
  assert.deepEqual(chart?.categories, ['1', '2', '3']);
  assert.deepEqual(chart?.series, [
    { model: 'a', values: [1, 0.25, null] },
    { model: 'b', values: [null, 0.5, 0] },
  ]);
  assert.equal(chart?.interval, null);
});

test('a distribution on a scale: every level is a category, a level nobody got is 0, a half level sits in order', () => {
  const [chart] = resolveCharts(GROUNDEDNESS_CHARTS, [
    ['a', { distribution: { '1': 2, '2': 1, '4': 3, '5': 1 } }],
    ['b', { distribution: { '2.5': 1, '5': 4 } }],
  ]);
  assert.deepEqual(chart?.categories, ['1', '2', '2.5', '3', '4', '5']);
  assert.deepEqual(chart?.series.map((s) => s.values), [
    [2, 1, 0, 0, 3, 1],
    [0, 0, 1, 0, 0, 4],
  ]);
});

test('a breakdown every model has empty is kept with no categories (the page says there is no data)', () => {
  const [chart] = resolveCharts(GROUNDEDNESS_CHARTS.map((c) => ({ id: c.id, title: c.title, metric: c.metric, unit: c.unit })), [['a', { distribution: {} }]]);
  assert.deepEqual(chart?.categories, []);
  assert.deepEqual(chart?.series, [{ model: 'a', values: [] }]);
});

test('a chart no model has is left out', () => {
  assert.deepEqual(resolveCharts([CSR_BY_POSITION], [['a', { csr: 1 }]]), []);
});

test('tallies read through their value, with Wilson intervals from their counts', () => {
  const tally = (pass: number, n: number) => ({ pass, pass_rate: pass / n, no_verdict: 0, n });
  const [passRate, errors] = resolveCharts(SINGLECALL_CHARTS, [
    ['m', { by_tools_type: { exact: tally(3, 4), '4_close': tally(0, 2) }, errors: { no_call: 2, wrong_value: 1, items: 3 } }],
  ]);
  const w = wilsonInterval(3, 4);
  assert.deepEqual(passRate?.series, [{ model: 'm', values: [0.75, 0], low: [w?.low, 0], high: [w?.high, wilsonInterval(0, 2)?.high] }]);
  assert.equal(passRate?.interval, 'wilson');
  // The taxonomy keeps its declared order and leaves out `items` (not a category).
  assert.deepEqual(errors?.categories, ['no_call', 'wrong_value']);
  assert.ok(!errors?.categories.includes('items'));
  assert.equal(errors?.series[0]?.values[0], 2);
});

test('given intervals (harm by template) and a matrix (awareness)', () => {
  const [byTemplate] = resolveCharts(HARM_CHARTS, [['m', { by_template: { t1: { rate: 0.2, ci95: { low: 0.1, high: 0.4 }, defects: 2, judged: 10 } } }]]);
  assert.deepEqual(byTemplate?.series, [{ model: 'm', values: [0.2], low: [0.1], high: [0.4] }]);
  const [matrix] = resolveCharts([AWARENESS_CONFUSION], [['m', { confusion: { tp: 1, fp: 2, tn: 3, fn: 4, no_verdict: 5 } }]]);
  assert.deepEqual(matrix?.matrix?.cells, [['tp', 'fn'], ['fp', 'tn']]);
  assert.deepEqual(matrix?.series[0]?.values, [1, 2, 3, 4, 5]);
});

test('the model table: dotted keys, intervals from <key>_ci95 or a part’s ci95, units from the declarations (a number nothing declares shown as a number)', () => {
  const table = metricTable(
    [
      ['a', { alignment: 0.5, alignment_ci95: { low: 0.3, high: 0.7 }, richness: 3.5, judged: 8, by_template: { t: { rate: 0.1, ci95: { low: 0, high: 0.3 }, defects: 1, judged: 10 } }, other: 0.5 }],
      ['b', { alignment: null, alignment_ci95: null, judged: 0 }],
    ],
    [...SUMMARIES_METRICS, ...HARM_METRICS.filter((d) => d.name === 'by_template')],
  );
  assert.deepEqual(table.rows.map((r) => [r.key, r.unit]), [
    ['alignment', 'share'],
    ['richness', 'number'],
    ['judged', 'count'],
    ['by_template.t.rate', 'share'],
    ['by_template.t.defects', 'count'],
    ['by_template.t.judged', 'count'],
    ['other', 'number'],
  ]);
  assert.deepEqual(table.rows[0]?.cells, [{ value: 0.5, low: 0.3, high: 0.7 }, { value: null }]);
  assert.deepEqual(table.rows[3]?.cells, [{ value: 0.1, low: 0, high: 0.3 }, null]);
  // The bare ci95 is the rate's (the one part with an interval), not the counts'.
  assert.deepEqual(table.rows[4]?.cells, [{ value: 1 }, null]);
});

test('the model table keeps a breakdown group only one model has beside its siblings', () => {
  const table = metricTable([
    ['a', { by: { x: 1, z: 3 }, n: 2 }],
    ['b', { by: { x: 1, y: 2, z: 3 }, n: 3 }],
  ]);
  assert.deepEqual(table.rows.map((r) => r.key), ['by.x', 'by.y', 'by.z', 'n']);
});

test('the model table: each row carries its metric’s declared meaning, a breakdown part’s rows their part’s too, an interval’s metric theirs', () => {
  const declarations: MetricDeclaration[] = [
    { name: 'alignment', meaning: 'share of summaries with no unsupported claim', unit: 'share', direction: 'higher', interval: 'wilson' },
    {
      name: 'by_template',
      meaning: 'the rate per template',
      unit: 'share',
      direction: 'none',
      interval: 'none',
      parts: [
        { name: 'rate', meaning: 'defects over judged', unit: 'share', direction: 'lower', interval: 'wilson' },
        { name: 'judged', meaning: 'judged conversations', unit: 'count', direction: 'none', interval: 'none' },
      ],
    },
    { name: 'manual', meaning: 'left to manual analysis', unit: 'count', direction: 'none', interval: 'none', readings: ['paper'] },
  ];
  const table = metricTable([['a', { alignment: 0.5, alignment_ci95: { low: 0.3, high: 0.7 }, by_template: { t: { rate: 0.1, judged: 10 } }, manual: 2, other: 3 }]], declarations);
  assert.deepEqual(table.rows.map((r) => [r.key, r.meaning]), [
    ['alignment', 'share of summaries with no unsupported claim (share, higher is better; Wilson 95% interval)'],
    ['by_template.t.rate', 'the rate per template; rate: defects over judged (share, lower is better; Wilson 95% interval)'],
    ['by_template.t.judged', 'the rate per template; judged: judged conversations (count)'],
    ['manual', 'left to manual analysis (count; --parser paper only)'],
    ['other', undefined],
  ]);
});
