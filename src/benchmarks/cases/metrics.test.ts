import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Score } from '../../core/index.js';
import { wilsonInterval } from '../../metrics/intervals.js';
import type { ScoredSample } from '../task.js';
import type { ExpectationResult } from './expectation.js';
import { casesMetrics } from './metrics.js';

const result = (kind: ExpectationResult['kind'], outcome: ExpectationResult['outcome']): ExpectationResult => ({ kind, expected: kind, outcome, reason: '' });
const row = (id: string, value: boolean | null, results: readonly ExpectationResult[], review?: boolean): ScoredSample => ({
  sample: { id, target: null, metadata: {} },
  score: { value, explanation: '', metadata: { expectations: results } } satisfies Score,
  ...(review !== undefined ? { review } : {}),
});

test('pass rate over decided cases with its Wilson interval; no verdicts and errors counted apart; tallies per kind', () => {
  const rows: ScoredSample[] = [
    row('a', true, [result('contains', 'pass'), result('rubric', 'pass')]),
    row('b', true, [result('regex', 'pass')]),
    row('c', false, [result('contains', 'fail'), result('rubric', 'no-verdict')]),
    row('d', null, [result('contains', 'pass'), result('rubric', 'no-verdict')]),
    { sample: { id: 'f', target: null, metadata: {} }, score: { value: false, explanation: '', metadata: { expectations: [result('not-contains', 'pass')], emptyAnswer: true } } },
    { sample: { id: 'e', target: null, metadata: {} }, score: undefined },
  ];
  const m = casesMetrics(rows);
  // By hand: decided a, b (pass), c and the empty answer f (fail) → 2/4; d no verdict; e an error.
  const ci = wilsonInterval(2, 4);
  assert.deepEqual(m, {
    pass_rate: 2 / 4,
    pass_rate_ci95: { low: ci?.low, high: ci?.high },
    pass: 2,
    fail: 2,
    no_verdict: 1,
    n: 5,
    errors: 1,
    empty_answers: 1,
    by_expectation: {
      contains: { pass: 2, fail: 1, no_verdict: 0, n: 3, pass_rate: 2 / 3 },
      'not-contains': { pass: 1, fail: 0, no_verdict: 0, n: 1, pass_rate: 1 },
      regex: { pass: 1, fail: 0, no_verdict: 0, n: 1, pass_rate: 1 },
      rubric: { pass: 1, fail: 0, no_verdict: 2, n: 3, pass_rate: 1 },
    },
  });
});

test('a human review decides its case: a no verdict reviewed pass counts as a pass', () => {
  const m = casesMetrics([row('a', null, [result('rubric', 'no-verdict')], true), row('b', false, [result('contains', 'fail')])]);
  assert.deepEqual([m['pass_rate'], m['pass'], m['fail'], m['no_verdict']], [0.5, 1, 1, 0]);
});

test('nothing scored: no rate, no interval', () => {
  const m = casesMetrics([]);
  assert.deepEqual([m['pass_rate'], m['pass_rate_ci95'], m['n'], m['by_expectation']], [null, null, 0, {}]);
});
