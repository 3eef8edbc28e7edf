import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ModelCallError } from '../../../core/index.js';
import { parseOpenAIResponse } from './parse-openai-response.js';

const body = (message: unknown, extra: Record<string, unknown> = {}): string => JSON.stringify({ model: 'm', choices: [{ index: 0, message, ...extra }] });

describe('parseOpenAIResponse', () => {
  it('joins text content parts', () => {
    const result = parseOpenAIResponse(body({ role: 'assistant', content: [{ type: 'text', text: 'Hel' }, { type: 'text', text: 'lo' }] }, { finish_reason: 'stop' }), 200, 'm');
    assert.equal(result.text, 'Hello');
  });

  it('leaves out the raw finish reason when there is none, and partial usage', () => {
    const text = JSON.stringify({ choices: [{ message: { content: 'x' } }], usage: { prompt_tokens: 4 } });
    const result = parseOpenAIResponse(text, 200, 'm');
    assert.deepEqual(result.finishReason, { unified: 'other' });
    assert.deepEqual(result.usage, { inputTokens: 4 });
    assert.equal(result.responseModel, undefined, 'no model reported');
  });

  it('names tool calls without an id by position, and serializes object arguments with a warning', () => {
    const result = parseOpenAIResponse(
      body({ content: null, tool_calls: [{ type: 'function', function: { name: 'a', arguments: { x: 1 } } }, 'junk', { id: 'k', function: { name: 'b', arguments: '{"y":2}' } }] }, { finish_reason: 'tool_calls' }),
      200,
      'm',
    );
    assert.deepEqual(result.toolCalls, [
      { id: 'call_0', name: 'a', arguments: { x: 1 }, rawArguments: '{"x":1}' },
      { id: 'k', name: 'b', arguments: { y: 2 }, rawArguments: '{"y":2}' },
    ]);
    assert.equal(result.warnings.length, 1);
    assert.equal(result.warnings[0]?.type, 'compatibility');
  });

  it('reads a legacy function_call as one tool call', () => {
    const result = parseOpenAIResponse(body({ content: null, function_call: { name: 'f', arguments: '{"z":true}' } }, { finish_reason: 'function_call' }), 200, 'm');
    assert.deepEqual(result.toolCalls, [{ id: 'call_0', name: 'f', arguments: { z: true }, rawArguments: '{"z":true}' }]);
    assert.deepEqual(result.finishReason, { unified: 'tool-calls', raw: 'function_call' });
  });

  it('throws bad-response for non-JSON, non-objects and missing messages', () => {
    for (const text of ['<html>', '"just a string"', 'null', '{}', '{"choices":[null]}', '{"choices":[{"message":"hi"}]}']) {
      assert.throws(
        () => parseOpenAIResponse(text, 200, 'm'),
        (error: unknown) => error instanceof ModelCallError && error.kind === 'bad-response' && error.extra.status === 200,
        text,
      );
    }
  });
});
