import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readTargetAnswer, readToolCalls, readUsage } from './target-answer.js';

test('an answer {text, toolCalls?, usage?} becomes a result; usage is passed through only when given', () => {
  const plain = readTargetAnswer({ text: 'hi' });
  assert.ok(plain.ok);
  assert.deepEqual(plain.value, { text: 'hi', toolCalls: [], finishReason: { unified: 'stop' }, usage: {}, warnings: [], rawResponse: { text: 'hi' } });
  const full = readTargetAnswer({ toolCalls: [{ name: 'f', arguments: { a: 1 } }], usage: { inputTokens: 3, outputTokens: 4 } });
  assert.ok(full.ok);
  assert.equal(full.value.text, '', 'tool calls alone need no text');
  assert.deepEqual(full.value.finishReason, { unified: 'tool-calls' });
  assert.deepEqual(full.value.usage, { inputTokens: 3, outputTokens: 4 });
});

test('an answer without text and calls, or not an object, is a problem saying what was found', () => {
  assert.deepEqual(readTargetAnswer({ reply: 'x' }), { ok: false, problem: 'the answer\'s "text" found nothing' });
  assert.deepEqual(readTargetAnswer('hi'), { ok: false, problem: 'the answer must be an object {text, toolCalls?, usage?}, found a string ("hi")' });
  assert.deepEqual(readTargetAnswer({ text: ['a'] }), { ok: false, problem: 'the answer\'s "text" found a list (["a"]), not the reply text' });
});

test('tool calls: objects or JSON text as arguments, the chat-completions shape, ids kept or made', () => {
  const read = readToolCalls([{ name: 'a', arguments: '{"x":1}' }, { id: 'call_9', type: 'function', function: { name: 'b', arguments: '{}' } }, { name: 'c' }]);
  assert.ok(read.ok);
  assert.deepEqual(
    read.value.map((c) => [c.id, c.name, c.arguments]),
    [
      ['call_0', 'a', { x: 1 }],
      ['call_9', 'b', {}],
      ['call_2', 'c', {}],
    ],
  );
  assert.equal(readToolCalls([{ arguments: {} }]).ok, false);
});

test('usage in either naming; anything else is none', () => {
  assert.deepEqual(readUsage({ prompt_tokens: 5, completion_tokens: 2 }), { inputTokens: 5, outputTokens: 2 });
  assert.deepEqual(readUsage({ inputTokens: 5 }), { inputTokens: 5 });
  assert.deepEqual(readUsage({ inputTokens: -1, outputTokens: 'x' }), {});
  assert.deepEqual(readUsage(null), {});
});
