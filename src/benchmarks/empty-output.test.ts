import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GenerateResult, RoleGenerate } from '../core/index.js';
import { needsData, testDataDir } from '../testing/test-data.js';
import { findTask } from './registry.js';

// What every task makes of an empty output (issue 25, item 2): an endpoint that answers 200 with
// `content: null` or white space. Summaries and groundedness are tested beside their code.
const empty = (text: string): GenerateResult => ({ text, toolCalls: [], finishReason: { unified: 'stop' }, usage: {}, warnings: [] });
const noJudge: RoleGenerate = async () => {
  throw new Error('the judge must not be asked about an empty answer');
};
const JUDGE = { repeats: 1, format: 'text' as const, maxParseRetries: 0, temperature: 0, seed: 0, model: 'scripted:judge' };

describe('empty outputs', { skip: needsData('metatool') }, () => {
  for (const name of ['metatool/awareness', 'metatool/similar', 'metatool/multi']) {
    it(`${name}: an empty answer is no verdict (strict reading), never a pass`, async () => {
      const prepared = await findTask(name).prepare({ dataDir: testDataDir(), seed: 0, options: { limit: 2 } });
      for (const sample of Array.from(prepared.samples)) for (const text of ['', '  \n']) assert.equal(prepared.score(sample, empty(text)).value, null);
    });
  }
});

describe('empty outputs: FunctionChat', { skip: needsData('functionchat') }, () => {
  it('a call item fails (no tool call); a text item fails without asking the judge', async () => {
    const prepared = await findTask('functionchat/dialog').prepare({ dataDir: testDataDir(), seed: 0, options: { limit: 2 } });
    const [textItem, callItem] = Array.from(prepared.samples);
    assert.ok(textItem && callItem);
    assert.equal(prepared.score(callItem, empty('')).value, false);
    const score = prepared.score(textItem, empty('   '));
    assert.deepEqual([score.value, score.explanation], [false, 'empty answer: no text and no tool call (fails without a judge)']);
    const graded = await prepared.gradeWithJudge?.(textItem, empty(' '), noJudge, JUDGE);
    assert.ok(graded && 'score' in graded);
    assert.equal(graded.score.value, false);
  });
});
