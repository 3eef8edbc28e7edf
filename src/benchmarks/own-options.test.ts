import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InputError } from '../core/index.js';
import { summariesOptions } from './summaries/options.js';
import { flagOf } from './own-options.js';

const refused = (run: () => unknown, expected: RegExp): void => assert.throws(run, (e: unknown) => e instanceof InputError && expected.test(e.message));

test('a task\'s own options: the required one named when missing, bad values named by flag, defaults filled', () => {
  assert.equal(flagOf('coverageQuestions'), '--coverage-questions');
  refused(() => summariesOptions('summaries/alignment', undefined), /^summaries\/alignment needs --articles <path>: a folder of \.txt articles/);
  refused(() => summariesOptions('summaries/alignment', { articles: '/a', coverageQuestions: 99 }), /^summaries\/alignment: --coverage-questions .*50/);
  refused(() => summariesOptions('summaries/alignment', { articles: '/a', prompt: '  ' }), /--prompt must not be empty/);
  assert.deepEqual(summariesOptions('summaries/alignment', { articles: '/a' }), { articles: '/a', prompt: 'Summarize the article in one paragraph.', verdicts: 'batch', coverageQuestions: 5 });
});
