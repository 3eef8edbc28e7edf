import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_COMPARISON } from '../../benchmarks/comparison.js';
import type { ResultRecord } from '../../store/records.js';
import { makeResult } from '../../store/test-support/store-contract.js';
import { pairSamples } from './sample-pairs.js';

const result = (sampleId: string, pass: boolean, repeat?: number): ResultRecord =>
  makeResult({ runId: 'r', sampleId, modelId: 'm', score: { value: pass }, ...(repeat !== undefined ? { repeat } : {}) });

test('runs with repeats pair by sample and repeat; a repeat one run lacks is unpaired; repeat 0 is the field left out', () => {
  // A: s1 repeats 0, 1, 2; B: s1 repeats 0 and 1 (the second with another verdict), s2 repeat 0.
  const a = [result('s1', true), result('s1', false, 1), result('s1', true, 2)];
  const b = [result('s1', true, 0), result('s1', true, 1), result('s2', false)];
  const paired = pairSamples(a, b, DEFAULT_COMPARISON);
  assert.deepEqual(paired.pairs.map((p) => [p.sampleId, p.repeat ?? 0, p.a.kind === 'read' && p.a.pass, p.b.kind === 'read' && p.b.pass]), [
    ['s1', 0, true, true],
    ['s1', 1, false, true],
  ]);
  assert.deepEqual([paired.onlyInA, paired.onlyInB], [1, 1]);
});
