import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InputError } from '../core/index.js';
import { parseReviewFile } from './review-file.js';

const rejects = (text: string, pattern: RegExp): void =>
  assert.throws(() => parseReviewFile(text, 'rev.csv'), (e: unknown) => e instanceof InputError && pattern.test(e.message));

test('reads item, verdict and note; verdict words are case-insensitive; a quoted note may span lines', () => {
  const text = 'item,verdict,note\nsinglecall-1-exact,PASS,fine\n"dialog-2-3",fail,"wrong\nunit"\ncalldecision-9,true,\n';
  assert.deepEqual(parseReviewFile(text, 'rev.csv'), [
    { line: 2, sampleId: 'singlecall-1-exact', verdict: true, note: 'fine' },
    { line: 3, sampleId: 'dialog-2-3', verdict: false, note: 'wrong\nunit' },
    { line: 5, sampleId: 'calldecision-9', verdict: true, note: '' },
  ]);
});

test('a model column is read when present; columns may come in any order', () => {
  assert.deepEqual(parseReviewFile('verdict,model,sample_id\nfail,openai:a,s1\nfail,openai:b,s1\n', 'rev.csv'), [
    { line: 2, sampleId: 's1', modelId: 'openai:a', verdict: false, note: '' },
    { line: 3, sampleId: 's1', modelId: 'openai:b', verdict: false, note: '' },
  ]);
});

test('bad files are refused with the file and line', () => {
  rejects('', /rev\.csv: empty/);
  rejects('id,score\ns1,pass\n', /line 1: expected a header/);
  rejects('item,verdict\ns1,maybe\n', /rev\.csv: line 2: verdict "maybe" is not pass or fail/);
  rejects('item,verdict\ns1,\n', /line 2: verdict "" is not pass or fail/);
  rejects('item,verdict\n,pass\n', /line 2: the item column is empty/);
  rejects('item,verdict\ns1,pass\ns2,fail\ns1,fail\n', /line 4: item "s1" is already reviewed on line 2/);
  rejects('item,verdict\n"s1,pass\n', /not valid CSV/);
});
