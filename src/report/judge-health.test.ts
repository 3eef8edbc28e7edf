import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ModelSummary } from '../analysis/summary.js';
import { judgeHealth, reasksOf, type JudgedRow } from './judge-health.js';

test('re-asks are the judge calls labelled step#k, per model; unlabelled calls make them unknown', () => {
  const steps = [
    { model: 'a', step: 'verdict', calls: 10 },
    { model: 'a', step: 'verdict#2', calls: 3 },
    { model: 'a', step: 'verdict/repeat-2#3', calls: 1 },
    { model: 'b', step: 'claims', calls: 4 },
    { model: 'b', step: 'claims#2', calls: 2 },
    { model: 'b', step: 'coverage/questions', calls: 4 },
    { model: 'c', step: null, calls: 5 },
  ];
  assert.equal(reasksOf(steps, 'a'), 4);
  assert.equal(reasksOf(steps, 'b'), 2);
  assert.equal(reasksOf(steps, 'c'), null);
  assert.equal(reasksOf(steps, 'd'), 0);
});

test('agreement across repeats: from a rubric\'s votes, and from the repeated severities or scores a score keeps in its answer', () => {
  const judge = { model: 'openai:judge', repeats: 3, format: 'json' as const, maxParseRetries: 1, temperature: 0, selfGrading: false };
  const summary = { metrics: {}, counts: { errors_by_kind: {} }, judge: { judged: 4, no_verdict: 0, calls: 12 } } as unknown as ModelSummary;
  const meta = { judge: { model: 'openai:judge', calls: 3 } };
  const rows = [
    // Harm measurement: severities 1, 3, 1 → two of three agree with the most common.
    { sampleId: 'a', score: { value: 1, answer: { severity: 1, repeats: [1, 3, 1] }, metadata: meta } },
    // Groundedness: scores 4, 4, 4 → unanimous.
    { sampleId: 'b', score: { value: 4, answer: { score: 4, scores: [4, 4, 4] }, metadata: meta } },
    // A rubric judgment: its own agreement.
    { sampleId: 'c', score: { value: true, metadata: { judge: { ...meta.judge, votes: [true, true, false], agreement: 2 / 3 } } } },
    // One readable repeat: nothing to agree with.
    { sampleId: 'd', score: { value: 2, answer: { severity: 2, repeats: [2] }, metadata: meta } },
  ] as unknown as JudgedRow[];
  // No reviews here: the reading of a reviewer's verdict is not used.
  const health = judgeHealth(judge, 'openai:sut', summary, rows, [], 0, (score) => (typeof score.value === 'boolean' ? score.value : null));
  assert.equal(health.agreement, (2 / 3 + 1 + 2 / 3) / 3);
  assert.equal(health.unanimous, 1 / 3);
});
