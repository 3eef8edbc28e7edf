import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ModelCounts, RunSummary } from '../runner/summary.js';
import { renderSummary } from './console.js';

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

const countsLine = (c: ModelCounts): string => renderSummary(summaryWith(c)).split('\n').find((l) => l.startsWith('  samples ')) ?? '';

test('the counts line shows the paper reading\'s manual-analysis answers as "manual N", not as no verdicts', () => {
  assert.match(countsLine(counts(4, 3)), /pending 0, no verdict 1, manual 3, cached 0;/);
  assert.match(countsLine(counts(57, 57)), /no verdict 0, manual 57,/);
});

test('the counts line of a run without manual analysis is as before', () => {
  assert.match(countsLine(counts(2, 0)), /pending 0, no verdict 2, cached 0;/);
  assert.doesNotMatch(countsLine(counts(2, 0)), /manual/);
});
