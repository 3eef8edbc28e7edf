import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Score } from '../core/index.js';
import { correctedRateOfReviews } from './corrected-rate.js';
import { findTask } from './registry.js';
import type { MetricsContext, ScoredSample } from './task.js';

const row = (id: string, score: Score | undefined): ScoredSample => ({ sample: { id, metadata: {} } as unknown as ScoredSample['sample'], score });
const harmScore = (severity: number, defect: boolean): Score => ({ value: severity, answer: { severity, defect, repeats: [severity], reasonings: [], spread: 0, agreement: 1, unreadable: 0 }, explanation: '' });
const noVerdict: Score = { value: null, answer: null, explanation: 'judge: no verdict' };
const harmContext: MetricsContext = { options: {} as MetricsContext['options'], facts: undefined };

test('harm: judge and person read as defects the same way; only items the judge gave a verdict count; by hand', () => {
  const task = findTask('harm/system-prompt-leakage');
  // Judged c1..c6: defect, defect, defect, clean, clean, clean (the judgment's `defect`); c7 no verdict; c8 an error.
  const rows = [row('c1', harmScore(5, true)), row('c2', harmScore(6, true)), row('c3', harmScore(7, true)), row('c4', harmScore(1, false)), row('c5', harmScore(0, false)), row('c6', harmScore(2, false)), row('c7', noVerdict), row('c8', undefined)];
  // Reviews: c1 pass (person − judge = −1), c2 fail (0), c4 pass (0), c5 pass (0); c7 and c8 fail (no judge call: left out).
  const reviews = new Map([['c1', true], ['c2', false], ['c4', true], ['c5', true], ['c7', false], ['c8', false]]);
  const c = correctedRateOfReviews(task, harmContext, rows, reviews);
  // Judge rate 3/6. Rectifier −1/4; unlabelled c3 (defect), c6 (clean) → 1/2; θ = 1/2 − 1/4 = 1/4.
  // V = s²_judge/2 + var/4 with s²_judge = (2/1)(1/4) = 1/2 and var = 0.1 + 0.3 − 0.2² = 0.36 → 0.34;
  // half-width 1.96 · 0.583 > the rate: [0, 0.25 + 1.959964 · √0.34]. Halving: M = 6, c = 0.085,
  // p = 0.51 + 0.36 − 0.5 = 0.37, p² − 4·c·0.36·6 = 0.1369 − 0.7344 < 0 → cannot.
  assert.ok(c);
  assert.deepEqual([c.judge_rate, c.rate, c.rectifier, c.labelled, c.unlabelled, c.reviews_left_out, c.labels_to_halve, c.ci95?.low], [0.5, 0.25, -0.25, 4, 2, 2, null, 0]);
  assert.ok(Math.abs((c.ci95?.high ?? NaN) - Math.min(1, 0.25 + 1.959963984540054 * Math.sqrt(0.34))) < 1e-12);
});

test('groundedness: the run\'s threshold decides what the judge called a defect', () => {
  const task = findTask('quality/groundedness');
  const grade = (score: number): Score => ({ value: score, answer: { score, scores: [score], reasonings: [], spread: 0 }, explanation: '' });
  const rows = [row('a', grade(3)), row('b', grade(5)), row('c', grade(1)), row('d', grade(4))];
  const reviews = new Map([['a', true], ['b', true]]);
  const at = (threshold: number) => correctedRateOfReviews(task, { options: { task: { items: 'x.jsonl', threshold } } as unknown as MetricsContext['options'], facts: undefined }, rows, reviews);
  // Threshold 4: judge defects a (3) and c (1) → 2/4; the person passes a: rectifier (−1 + 0)/2.
  assert.deepEqual([at(4)?.judge_rate, at(4)?.rectifier], [0.5, -0.5]);
  // Threshold 3: only c → 1/4; the person agrees on a and b: rectifier 0.
  assert.deepEqual([at(3)?.judge_rate, at(3)?.rectifier], [0.25, 0]);
});

test('no reviews, or a task without a judged defect rate: nothing', () => {
  const rows = [row('c1', harmScore(5, true)), row('c2', harmScore(0, false))];
  assert.equal(correctedRateOfReviews(findTask('harm/system-prompt-leakage'), harmContext, rows, new Map()), undefined);
  assert.equal(correctedRateOfReviews(findTask('summaries/alignment'), harmContext, [row('s', { value: true, explanation: '' })], new Map([['s', false]])), undefined);
});
