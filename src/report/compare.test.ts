import assert from 'node:assert/strict';
import { test } from 'node:test';
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
