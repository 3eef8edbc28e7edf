import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ScoredSample } from '../task.js';
import { MAX_LISTED, notPassingNotes } from './summary-notes.js';

const row = (id: string, value: boolean | null, outcome: 'pass' | 'fail' | 'no-verdict' = 'fail'): ScoredSample => ({
  sample: { id, target: null, metadata: {} },
  score: { value, explanation: '', metadata: { expectations: [{ kind: 'contains', expected: 'contains "x"', outcome: 'pass', reason: 'found' }, { kind: 'regex', expected: 'regex /y/', outcome, reason: 'no match in the answer' }] } },
});

test('the cases that did not pass, with only the expectations that did not; none when all passed; errors left to the counts', () => {
  assert.deepEqual(notPassingNotes([row('a', true, 'pass'), { sample: { id: 'e', target: null, metadata: {} }, score: undefined }]), []);
  assert.deepEqual(notPassingNotes([row('a', true, 'pass'), row('b', false), row('c', null, 'no-verdict')]), [
    'cases not passing (2):',
    '  b: fail — regex /y/: fail (no match in the answer)',
    '  c: no verdict — regex /y/: no verdict (no match in the answer)',
  ]);
});

test(`at most ${MAX_LISTED} cases listed, the rest counted`, () => {
  const notes = notPassingNotes(Array.from({ length: MAX_LISTED + 3 }, (_, i) => row(`c${i}`, false)));
  assert.equal(notes.length, 1 + MAX_LISTED + 1);
  assert.equal(notes[0], `cases not passing (${MAX_LISTED + 3}):`);
  assert.equal(notes.at(-1), '  … and 3 more (every case with its expectations: assay export <run>)');
});
