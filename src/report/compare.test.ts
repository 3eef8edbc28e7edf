import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_COMPARISON } from '../benchmarks/comparison.js';
import { harmComparison } from '../benchmarks/harm/comparison.js';
import type { Score } from '../core/index.js';
import { buildRunComparison } from '../analysis/compare/run-comparison.js';
import type { ResultRecord, RunRecord } from '../store/records.js';
import { renderComparison } from './compare.js';

const run = (id: string): RunRecord =>
  ({ id, task: 'harm/system-prompt-leakage', taskVersion: '1', status: 'finished', createdAt: '2026-01-01T00:00:00.000Z', models: ['sut'] }) as unknown as RunRecord;

/** A harm result: a severity (a defect from 2 up), null for no verdict, 'error'. */
function result(runId: string, i: number, severity: number | null | 'error'): ResultRecord {
  const score: Score | null = severity === 'error' ? null : severity === null ? { value: null } : { value: severity, answer: { severity, defect: severity >= 2 } };
  return { runId, sampleId: `c${i}`, modelId: 'sut', status: severity === 'error' ? 'error' : 'done', score } as unknown as ResultRecord;
}

test('console: a harm comparison shows both rows (pass = no defect, mean severity), what was left out, and the buckets', () => {
  const a = [3, 2, 0, 1, 3, null, 1].map((s, i) => result('A', i, s));
  const b = [1, 0, 0, 2, 3, 0, 'error' as const].map((s, i) => result('B', i, s));
  const text = renderComparison(buildRunComparison({ runA: run('A'), runB: run('B'), resultsA: a, resultsB: b, comparison: harmComparison }));
  // 5 pairs decided: no defect in A 2/5 (c2, c3), in B 3/5 (c0, c1, c2); severities 1.8 → 1.2.
  assert.match(text, /\n  pass rate \(pass = no defect\)\s+5\s+0\.400\s+0\.600\s+\+0\.200\s+\[−0\.\d{3}, \+0\.\d{3}\]\s+1\.000\s+McNemar exact\n/);
  assert.match(text, /\n  mean severity\s+5\s+1\.800\s+1\.200\s+−0\.600\s+\[−\d\.\d{3}, [+−]\d\.\d{3}\]\s+0\.500\s+sign-flip \(exact\)\n/);
  assert.match(text, /1 ended in error on a side \(left out of every figure\)/);
  assert.match(text, /higher in B 1, lower in B 2, equal 2/);
  assert.match(text, /\n  newly passing \(A fail, B pass\)\s+2\s+c0, c1\n/);
  assert.match(text, /\n  no verdict on a side\s+1\s+c5\n  error on a side\s+1\s+c6\n$/);
});

test('console: a bucket shows its first five ids and how many more', () => {
  const a = Array.from({ length: 7 }, (_, i) => result('A', i, 0));
  const b = Array.from({ length: 7 }, (_, i) => result('B', i, 3));
  const text = renderComparison(buildRunComparison({ runA: run('A'), runB: run('B'), resultsA: a, resultsB: b, comparison: harmComparison }));
  assert.match(text, /newly failing \(A pass, B fail\)\s+7\s+c0, c1, c2, c3, c4, … \(2 more\)\n/);
});

test('console: runs with repeats say the unit (the sample), test with sign-flip over samples, and name the buckets by pass share', () => {
  const withRepeats = (id: string): RunRecord => ({ ...run(id), task: 'cases', repeats: 3 }) as unknown as RunRecord;
  // c0: A 3/3 → B 1/3; c1: 0/3 → 2/3; c2: 0/3 → 0/3; c3: 2/3 → 2/3.
  const plan: Record<string, [boolean[], boolean[]]> = { c0: [[true, true, true], [true, false, false]], c1: [[false, false, false], [true, true, false]], c2: [[false, false, false], [false, false, false]], c3: [[true, false, true], [false, true, true]] };
  const results = (runId: string, side: 0 | 1): ResultRecord[] =>
    Object.entries(plan).flatMap(([sampleId, sides]) => sides[side].map((pass, repeat) => ({ runId, sampleId, modelId: 'sut', status: 'done', score: { value: pass }, ...(repeat > 0 ? { repeat } : {}) }) as unknown as ResultRecord));
  const text = renderComparison(buildRunComparison({ runA: withRepeats('A'), runB: withRepeats('B'), resultsA: results('A', 0), resultsB: results('B', 1), comparison: DEFAULT_COMPARISON }));
  assert.match(text, /\n  paired by sample: 4 samples × up to 3 repeats, cluster bootstrap over samples\n/);
  // Differences −2/3, +2/3, 0, 0: mean 0; sign-flip exact p = 1.
  assert.match(text, /\n  pass rate\s+4\s+0\.417\s+0\.417\s+[−+]?0\.000\s+\[−0\.\d{3}, \+0\.\d{3}\]\s+1\.000\s+sign-flip \(exact\)\n/);
  assert.match(text, /interval: cluster bootstrap over samples \(percentile\), 2000 resamples; sign-flip test on the per-sample differences: higher in B 1, lower in B 1, equal 2/);
  assert.match(text, /\n  newly failing \(lower pass share in B\)\s+1\s+c0\n  newly passing \(higher pass share in B\)\s+1\s+c1\n  still failing \(no pass on either side\)\s+1\s+c2\n  unchanged \(the same share, some passing\)\s+1\s+c3\n/);
  assert.doesNotMatch(text, /McNemar/);
});
