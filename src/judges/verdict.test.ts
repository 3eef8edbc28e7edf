import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePassFail } from './verdict.js';

const verdictOf = (text: string): boolean | null => parsePassFail(text).verdict;

describe('parsePassFail', () => {
  it('reads a plain last line, in any case, and the repeated decision the rubric asks for', () => {
    assert.equal(verdictOf('The call matches.\npass'), true);
    assert.equal(verdictOf('Wrong function.\nfail'), false);
    assert.equal(verdictOf('reasoning\n\npass\npass\n'), true);
    assert.equal(verdictOf('reasoning\nFAIL\nFail'), false);
    assert.equal(verdictOf('PASS'), true);
  });

  it('says which line it read', () => {
    assert.deepEqual(parsePassFail('ok\n  **Pass**  \n\n'), { verdict: true, reason: 'pass: last line "**Pass**"' });
  });

  it('strips quotes, markdown emphasis and trailing punctuation', () => {
    for (const line of ['**Pass**', 'Pass.', '"pass"', "'pass'", '`pass`', '“Pass”', '*pass*', '__pass__', '**"Pass."**', '"**pass**".', 'pass!', 'pass。']) {
      assert.equal(verdictOf(`reasoning\n${line}`), true, line);
    }
    assert.equal(verdictOf('reasoning\n**Fail.**'), false);
  });

  it('accepts the Korean pass words upstream accepts, and no Korean fail word', () => {
    for (const line of ['패스', '패쓰', '통과', '합격', '**통과**', '합격.']) assert.equal(verdictOf(`추론\n${line}`), true, line);
    // 불합격 ("failed") contains 합격: upstream's substring match reads it as pass; here it is no verdict.
    for (const line of ['불합격', '실패', '통과입니다', 'pass입니다.']) assert.equal(verdictOf(`추론\n${line}`), null, line);
  });

  it('gives no verdict when the last line is anything but exactly one verdict word', () => {
    const cases: [string, string][] = [
      ['reasoning\npass or fail', 'last line "pass or fail" is not exactly pass or fail'],
      ['reasoning\npassed', 'last line "passed" is not exactly pass or fail'],
      ['I cannot decide', 'last line "I cannot decide" is not exactly pass or fail'],
      ['Final decision: pass', 'last line "Final decision: pass" is not exactly pass or fail'],
      ['pass\n~~pass~~', 'last line "~~pass~~" is not exactly pass or fail'],
      ['pass\n- pass', 'last line "- pass" is not exactly pass or fail'],
    ];
    for (const [text, reason] of cases) assert.deepEqual(parsePassFail(text), { verdict: null, reason }, text);
  });

  it('gives no verdict when the judge contradicts itself on its last two lines', () => {
    assert.deepEqual(parsePassFail('reasoning…\npass\nfail'), { verdict: null, reason: 'the last two lines disagree: "pass" then "fail"' });
    assert.equal(verdictOf('reasoning…\n**Fail**\n\n통과'), null);
    // An earlier verdict word is reasoning, not a contradiction.
    assert.equal(verdictOf('At first I thought:\npass\nbut the key is wrong.\nfail\nfail'), false);
  });

  it('gives no verdict for an empty or blank answer', () => {
    assert.deepEqual(parsePassFail(''), { verdict: null, reason: 'empty judge answer' });
    assert.deepEqual(parsePassFail(' \n\r\n\t'), { verdict: null, reason: 'empty judge answer' });
  });

  it('gives no verdict when the judge ends by echoing a rubric line', () => {
    const echoed =
      'The call is right.\npass\nFor clarity, repeat your final decision once more (without quotes or punctuation, literally).';
    assert.equal(verdictOf(echoed), null);
    assert.equal(verdictOf('reasoning\nSubsequently, on a separate line, clearly indicate whether it is a "pass" or "fail".'), null);
  });

  it('cuts a long last line in the reason', () => {
    const long = 'x'.repeat(200);
    assert.deepEqual(parsePassFail(long), { verdict: null, reason: `last line "${'x'.repeat(79)}…" is not exactly pass or fail` });
  });

  it('handles CRLF and other line breaks', () => {
    assert.equal(verdictOf('reasoning\r\nfail\r\n'), false);
    assert.equal(verdictOf('reasoning\u2028pass'), true);
  });
});
