import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acceptableArgumentsText, parseAcceptableArguments } from './acceptable.js';

describe('parseAcceptableArguments', () => {
  const cases: [string, Parameters<typeof parseAcceptableArguments>[0], ReturnType<typeof parseAcceptableArguments>][] = [
    ['null', null, { kind: 'none' }],
    ['the only-ground-truth sentence', 'Only ground truth is allowed.', { kind: 'only-ground-truth' }],
    ['another sentence is a rule', "The date should be expressed as 'tomorrow'.", { kind: 'rule', text: "The date should be expressed as 'tomorrow'." }],
    ['JSON text of lists', '{"location":["서귀포시","서귀포"]}', { kind: 'alternatives', values: { location: ['서귀포시', '서귀포'] } }],
    ['a single value becomes a one-element list', '{"amount": 5000.0, "to": ["위안","CNY"]}', { kind: 'alternatives', values: { amount: [5000], to: ['위안', 'CNY'] } }],
    ['an object as in some dialog rows', { repeat: false }, { kind: 'alternatives', values: { repeat: [false] } }],
    ['JSON that is not an object is a rule', '["a"]', { kind: 'rule', text: '["a"]' }],
  ];
  for (const [name, input, expected] of cases) it(name, () => assert.deepEqual(parseAcceptableArguments(input), expected));

  it('keeps a "__proto__" key as an ordinary key', () => {
    const parsed = parseAcceptableArguments('{"__proto__": ["x"]}');
    assert.ok(parsed.kind === 'alternatives' && Object.hasOwn(parsed.values, '__proto__'));
  });
});

describe('acceptableArgumentsText', () => {
  it('keeps strings and null, writes objects as Python json.dumps does', () => {
    assert.equal(acceptableArgumentsText(null), null);
    assert.equal(acceptableArgumentsText('{"a":1}'), '{"a":1}');
    assert.equal(acceptableArgumentsText({ title: ['어벤저스', 'Avengers'], n: 2 }), '{"title": ["어벤저스", "Avengers"], "n": 2}');
  });
});
