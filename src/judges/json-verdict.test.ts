import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseJsonVerdict } from './json-verdict.js';
import { JSON_VERDICT_INSTRUCTION, verdictSchema, withJsonVerdictInstruction } from './json-verdict-request.js';

describe('verdictSchema', () => {
  it('is a strict object with reasoning first, then a pass/fail verdict', () => {
    assert.deepEqual(Object.keys(verdictSchema.properties as object), ['reasoning', 'verdict']);
    assert.deepEqual(verdictSchema.required, ['reasoning', 'verdict']);
    assert.equal(verdictSchema.additionalProperties, false);
    assert.deepEqual((verdictSchema.properties as { verdict: { enum: string[] } }).verdict.enum, ['pass', 'fail']);
  });

  it('cannot be changed, even deep inside', () => {
    const verdict = (verdictSchema.properties as { verdict: { enum: string[] } }).verdict;
    assert.throws(() => verdict.enum.push('maybe'), TypeError);
    assert.ok(Object.isFrozen(verdictSchema.properties));
  });
});

describe('withJsonVerdictInstruction', () => {
  it('appends the JSON instruction after the filled rubric', () => {
    assert.equal(withJsonVerdictInstruction('RUBRIC'), `RUBRIC\n\n${JSON_VERDICT_INSTRUCTION}`);
    assert.match(JSON_VERDICT_INSTRUCTION, /"reasoning".*then "verdict"/);
  });
});

describe('parseJsonVerdict', () => {
  it('reads pass and fail', () => {
    assert.deepEqual(parseJsonVerdict('{"reasoning":"맞음","verdict":"pass"}'), { verdict: true, reason: 'pass: JSON verdict' });
    assert.deepEqual(parseJsonVerdict(' {"reasoning": "wrong key", "verdict": "fail"}\n'), { verdict: false, reason: 'fail: JSON verdict' });
  });

  it('tolerates a code fence around the whole answer', () => {
    assert.equal(parseJsonVerdict('```json\n{"reasoning":"r","verdict":"fail"}\n```').verdict, false);
    assert.equal(parseJsonVerdict('```\n{"reasoning":"r","verdict":"pass"}\n```').verdict, true);
    assert.equal(parseJsonVerdict('```JSON\r\n{"reasoning":"r","verdict":"pass"}```').verdict, true);
  });

  it('refuses text around the JSON or the fence', () => {
    assert.equal(parseJsonVerdict('Here: {"reasoning":"r","verdict":"pass"}').verdict, null);
    assert.equal(parseJsonVerdict('```json\n{"reasoning":"r","verdict":"pass"}\n```\npass').verdict, null);
  });

  it('gives no verdict, with the reason, for a wrong shape', () => {
    const cases: [string, RegExp][] = [
      ['{"reasoning":"r","verdict":"Pass"}', /verdict/],
      ['{"reasoning":"r","verdict":"passed"}', /verdict/],
      ['{"reasoning":"r","verdict":true}', /verdict/],
      ['{"verdict":"pass"}', /reasoning/],
      ['{"reasoning":"r","verdict":"pass","confidence":0.9}', /confidence/],
      ['["pass"]', /schema/],
      ['"pass"', /schema/],
      ['null', /schema/],
    ];
    for (const [text, reason] of cases) {
      const parsed = parseJsonVerdict(text);
      assert.equal(parsed.verdict, null, text);
      assert.match(parsed.reason, /^judge answer does not match the verdict schema: /, text);
      assert.match(parsed.reason, reason, text);
    }
  });

  it('gives no verdict for text that is not JSON, and for an empty answer', () => {
    assert.match(parseJsonVerdict('pass').reason, /^judge answer is not JSON: /);
    assert.equal(parseJsonVerdict('{"reasoning":"r","verdict":"pass"').verdict, null);
    assert.deepEqual(parseJsonVerdict('  '), { verdict: null, reason: 'empty judge answer' });
  });
});
