import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as jmespath from 'jmespath';
import { InputError } from '../../../core/index.js';
import { compileAnswerPath, jmesPathProblem } from './answer-path.js';

const ANSWERS: unknown[] = [
  { reply: 'hi', choices: [{ message: { content: 'text', tool_calls: null } }], usage: { prompt_tokens: 1 } },
  { reply: null, choices: [] },
  { reply: 0, choices: [{ message: 'not an object' }, { message: { content: ['a'] } }] },
  { reply: { nested: true }, choices: 'not a list', 'quoted key': { x: false } },
  [1, 2, 3],
  'just text',
  null,
  42,
];

test('paths of fields and indexes find what jmespath finds, on every shape of answer', () => {
  const expressions = ['reply', 'choices[0].message.content', 'choices[1].message.content[0]', 'choices[-1].message', 'usage.prompt_tokens', '"quoted key".x', '[0]', '[-1]', 'missing.deeper[3]'];
  for (const expression of expressions) {
    const path = compileAnswerPath(expression, 'x');
    for (const answer of ANSWERS) assert.deepEqual(path.find(answer), jmespath.search(answer, expression), `${expression} on ${JSON.stringify(answer)}`);
  }
});

test('other expressions are read by jmespath itself', () => {
  const path = compileAnswerPath('choices[*].message.content | [0]', 'x');
  assert.equal(path.find(ANSWERS[0]), 'text');
  assert.equal(compileAnswerPath('length(reply)', 'x').find({ reply: 'abc' }), 3);
  assert.throws(() => compileAnswerPath('length(reply)', 'x').find({ reply: 5 }), /length/);
});

test('a syntax error or an empty expression is refused, naming where', () => {
  assert.throws(() => compileAnswerPath('a[', 'bot: output'), (e: unknown) => e instanceof InputError && /^bot: output: "a\[" is not a JMESPath expression: /.test(e.message));
  assert.throws(() => compileAnswerPath('  ', 'bot: output'), /bot: output: the JMESPath expression is empty$/);
});

test('jmesPathProblem: the parser\'s reason, or undefined for an expression that parses', () => {
  assert.equal(jmesPathProblem('choices[0].message.content'), undefined);
  assert.equal(jmesPathProblem('calls[0'), 'Expected Rbracket, got: EOF');
  assert.equal(jmesPathProblem(' '), 'the expression is empty');
});
