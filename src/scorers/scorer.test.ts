import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { GenerateResult, Sample, Transcript } from '../core/index.js';
import { scoreWith, type ScoringContext, type Scorer } from './scorer.js';

const output = (text: string): GenerateResult => ({ text, toolCalls: [], finishReason: { unified: 'stop' }, usage: {}, warnings: [] });
const sample: Sample = { id: 's1', input: [], target: 'yes', metadata: {} };

/** A toy scorer: the output's first word against the target, with the reason, a no verdict for an empty answer. */
const firstWord: Scorer = {
  name: 'test/first-word',
  score: ({ sample: s, output: o }: ScoringContext) => {
    const word = o.text.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
    if (word === '') return { value: null, explanation: 'empty answer' };
    return { value: word === s.target, answer: word, explanation: `answered ${word}, expected ${String(s.target)}` };
  },
};

test('a scorer as a task’s score: the sample and output reach it as its context, and its explanation stays', () => {
  const score = scoreWith(firstWord);
  assert.deepEqual(score(sample, output('Yes it does.')), { value: true, answer: 'yes', explanation: 'answered yes, expected yes' });
  assert.deepEqual(score(sample, output('no')), { value: false, answer: 'no', explanation: 'answered no, expected yes' });
  assert.deepEqual(score(sample, output('  ')), { value: null, explanation: 'empty answer' });
});

test('the transcript reaches the scorer only when the task has one', () => {
  const seen: ScoringContext[] = [];
  const spy: Scorer = { name: 'test/spy', score: (context) => (seen.push(context), { value: null, explanation: 'spy' }) };
  const transcript: Transcript = [];
  scoreWith(spy)(sample, output('a'));
  scoreWith(spy)(sample, output('b'), transcript);
  assert.equal('transcript' in (seen[0] as ScoringContext), false);
  assert.equal(seen[1]?.transcript, transcript);
});
