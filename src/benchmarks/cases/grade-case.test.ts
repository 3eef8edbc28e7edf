import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { GenerateResult, JudgeRunSettings, RoleGenerate } from '../../core/index.js';
import type { Rubric } from '../../judges/judge-request.js';
import type { TestCase } from './case-file.js';
import { expectationResultsOf } from './metrics.js';
import { caseVerdict, gradeCase, scoreCase } from './grade-case.js';

const output = (text: string): GenerateResult => ({ text, toolCalls: [], finishReason: { unified: 'stop' }, usage: {}, warnings: [] });
const rubric: Rubric = { id: 'cases/rubric', source: 'rubric.txt', template: 'Conversation:\n{conversation}\nCriterion:\n{criterion}\nAnswer:\n{response}\nEnd with pass or fail.', sha256: 'beef' };
const settings: JudgeRunSettings = { model: 'scripted:judge', repeats: 1, format: 'text', maxParseRetries: 1, seed: 0, temperature: 0 };

const testCase: TestCase = {
  id: 'return-window',
  line: 1,
  messages: [{ role: 'user', content: 'How long do I have to return a bike?' }],
  expectations: [{ expectation: { kind: 'contains', text: '30 days' } }, { expectation: { kind: 'rubric', criterion: 'Stays polite.' } }],
};

/** A judge that answers by the criterion it is shown; records every prompt and step. */
function judgeAnswering(reply: (prompt: string) => string | Error): { judge: RoleGenerate; steps: string[]; prompts: string[] } {
  const steps: string[] = [];
  const prompts: string[] = [];
  const judge: RoleGenerate = async (role, request, step) => {
    assert.equal(role, 'judge');
    steps.push(step);
    const prompt = request.messages[0]?.content ?? '';
    prompts.push(prompt);
    const answer = reply(prompt);
    return answer instanceof Error ? { output: null, error: { kind: 'server', message: answer.message } } : { output: output(answer), error: null };
  };
  return { judge, steps, prompts };
}

test('a case passes when every expectation passes, fails when any fails, and is no verdict when only an undecided one is left', () => {
  const r = (outcome: 'pass' | 'fail' | 'no-verdict') => ({ kind: 'contains' as const, expected: 'x', outcome, reason: '' });
  assert.equal(caseVerdict([r('pass'), r('pass')]), true);
  assert.equal(caseVerdict([r('pass'), r('fail'), r('no-verdict')]), false, 'a failed expectation decides the case whatever the judge says');
  assert.equal(caseVerdict([r('pass'), r('no-verdict')]), null);
});

test('without a judge, a rubric is no verdict ("needs a judge"); each outcome and reason is in the explanation and metadata', () => {
  const score = scoreCase(testCase, output('You have 30 days.'));
  assert.equal(score.value, null);
  assert.equal(score.explanation, 'no verdict: 1 of 2 expectation(s) passed — contains "30 days": pass (found); rubric "Stays polite.": no-verdict (needs a judge)');
  assert.deepEqual(expectationResultsOf(score).map((r) => [r.kind, r.outcome]), [['contains', 'pass'], ['rubric', 'no-verdict']]);
});

test('the judge grades each rubric with the conversation, the criterion and the answer fenced; pass, fail and undecided', async () => {
  const pass = judgeAnswering(() => 'Polite and clear.\npass');
  const passed = await gradeCase(testCase, output('You have 30 days.'), rubric, pass.judge, settings);
  assert.ok('score' in passed);
  assert.equal(passed.score.value, true);
  assert.deepEqual(pass.steps, ['rubric-1']);
  assert.match(pass.prompts[0] ?? '', /<<<conversation [0-9a-f]+>>>\nuser: How long do I have to return a bike\?\n<<<end conversation/);
  assert.match(pass.prompts[0] ?? '', /<<<criterion [0-9a-f]+>>>\nStays polite\.\n<<<end criterion/);
  assert.match(pass.prompts[0] ?? '', /<<<response [0-9a-f]+>>>\nYou have 30 days\.\n<<<end response/);
  assert.deepEqual(passed.score.metadata?.['judge'], { rubric: 'cases/rubric', rubricSha256: 'beef' });
  const rubricResult = expectationResultsOf(passed.score)[1];
  assert.deepEqual([rubricResult?.outcome, rubricResult?.reason, rubricResult?.judge?.responses], ['pass', 'judge: pass (1/1)', ['Polite and clear.\npass']]);

  const failed = await gradeCase(testCase, output('You have 30 days.'), rubric, judgeAnswering(() => 'Rude.\nfail').judge, settings);
  assert.ok('score' in failed);
  assert.equal(failed.score.value, false);

  // Asked, re-asked once (maxParseRetries 1), never decided: the case is no verdict, not a fail.
  const unsure = judgeAnswering(() => 'I cannot tell from this.');
  const undecided = await gradeCase(testCase, output('You have 30 days.'), rubric, unsure.judge, settings);
  assert.ok('score' in undecided);
  assert.equal(undecided.score.value, null);
  assert.deepEqual(unsure.steps, ['rubric-1', 'rubric-1#2']);
  assert.match(undecided.score.explanation ?? '', /rubric "Stays polite\.": no-verdict \(judge: no verdict — 0 pass, 0 fail, 1 no verdict \(last line "I cannot tell from this\." is not exactly pass or fail\)\)$/);

  // The same undecided rubric beside a failed expectation: the case fails.
  const alsoFailed = await gradeCase(testCase, output('Two weeks.'), rubric, judgeAnswering(() => 'unsure').judge, settings);
  assert.ok('score' in alsoFailed);
  assert.equal(alsoFailed.score.value, false);
});

test('a judge call that fails outright makes the case an error (retryable), never a no verdict', async () => {
  const graded = await gradeCase(testCase, output('You have 30 days.'), rubric, judgeAnswering(() => new Error('503 from the judge')).judge, settings);
  assert.deepEqual(graded, { error: { kind: 'judge-server', message: 'the judge failed on rubric 1: 503 from the judge' } });
});

test('an empty answer fails its case whatever it expects; its rubric is not sent to the judge; a tool call alone is an answer', async () => {
  const onlyAbsent: TestCase = { id: 'no-secret', line: 1, messages: [{ role: 'user', content: 'Say hi.' }], expectations: [{ expectation: { kind: 'not-contains', text: 'MARIGOLD' } }] };
  const blank = scoreCase(onlyAbsent, output('  \n'));
  assert.equal(blank.value, false, 'not-contains alone passes on nothing, but nothing is not an answer');
  assert.equal(blank.explanation, 'fail: the answer is empty (no text, no tool call); 1 of 1 expectation(s) passed — not-contains "MARIGOLD": pass (absent)');
  assert.equal(blank.metadata?.['emptyAnswer'], true);
  assert.equal(scoreCase(onlyAbsent, output('Hi!')).value, true);
  assert.equal(scoreCase(onlyAbsent, output('Hi!')).metadata?.['emptyAnswer'], undefined);

  const asked = judgeAnswering(() => 'pass');
  const graded = await gradeCase(testCase, output(''), rubric, asked.judge, settings);
  assert.ok('score' in graded);
  assert.equal(graded.score.value, false);
  assert.deepEqual(asked.steps, [], 'no judge call for an empty answer');
  assert.deepEqual(expectationResultsOf(graded.score).map((r) => [r.kind, r.outcome, r.reason]), [
    ['contains', 'fail', '"30 days" is not in the answer'],
    ['rubric', 'fail', 'the answer is empty; not sent to the judge'],
  ]);

  const call: GenerateResult = { ...output(''), toolCalls: [{ id: 'c1', name: 'getOrder', rawArguments: '{"orderId":"A-17"}', arguments: { orderId: 'A-17' } }] };
  const toolCase: TestCase = { id: 'order', line: 1, messages: [{ role: 'user', content: 'Where is A-17?' }], expectations: [{ expectation: { kind: 'tool-call', name: 'getOrder', arguments: { orderId: 'A-17' } } }] };
  const called = scoreCase(toolCase, call);
  assert.equal(called.value, true);
  assert.equal(called.metadata?.['emptyAnswer'], undefined);
});
