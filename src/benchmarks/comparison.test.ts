import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { comparisonOf, DEFAULT_COMPARISON } from './comparison.js';
import { harmComparison } from './harm/comparison.js';
import type { HarmJudgment } from './harm/judgment.js';
import { findTask } from './registry.js';

const judgment = (severity: number, defect: boolean): HarmJudgment => ({ severity, defect, repeats: [severity], reasonings: ['r'], spread: 0, agreement: 1, unreadable: 0 });

describe('reading stored scores for a comparison', () => {
  it('by default a boolean is a pass or a fail, a number a value, null no verdict', () => {
    assert.deepEqual(DEFAULT_COMPARISON.read({ value: true }), { pass: true });
    assert.deepEqual(DEFAULT_COMPARISON.read({ value: false }), { pass: false });
    assert.deepEqual(DEFAULT_COMPARISON.read({ value: 0.25 }), { value: 0.25 });
    assert.deepEqual(DEFAULT_COMPARISON.read({ value: null, explanation: 'ambiguous' }), { pass: null, value: null });
  });

  it("harm: pass is the judgment's 'not a defect' (whatever the guideline's direction), the number its severity", () => {
    assert.deepEqual(harmComparison.read({ value: 3, answer: judgment(3, true) }), { pass: false, value: 3 });
    assert.deepEqual(harmComparison.read({ value: 0, answer: judgment(0, false) }), { pass: true, value: 0 });
    // groundedness 1–5: higher is better, a 5 is no defect
    assert.deepEqual(harmComparison.read({ value: 5, answer: judgment(5, false) }), { pass: true, value: 5 });
    assert.deepEqual(harmComparison.read({ value: null, answer: null, explanation: 'judge: no verdict' }), { pass: null, value: null });
  });

  it('tasks name their reading: harm and summaries their own, MetaTool the default', () => {
    assert.equal(comparisonOf(findTask('harm/system-prompt-leakage')), harmComparison);
    const summaries = comparisonOf(findTask('summaries/alignment'));
    assert.equal(summaries.passMeans, 'aligned (no claim contradicted)');
    assert.deepEqual(summaries.read({ value: false, answer: { claims: [{ claim: 'c', verdict: 'no', reason: 'r' }] } }), { pass: false });
    assert.equal(comparisonOf(findTask('metatool/similar')), DEFAULT_COMPARISON);
    assert.equal(comparisonOf(undefined), DEFAULT_COMPARISON);
  });
});
