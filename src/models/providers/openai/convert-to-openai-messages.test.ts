import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assistant, system, toolCallFromRaw, user } from '../../../core/index.js';
import { convertToOpenAIMessages } from './convert-to-openai-messages.js';

describe('convertToOpenAIMessages', () => {
  it('maps each role, sending raw tool arguments and tool results by call id', () => {
    const call = toolCallFromRaw('call_9', 'lookup', '{ "id" : 3 }');
    const broken = toolCallFromRaw('call_10', 'lookup', '{"id":');
    assert.deepEqual(
      convertToOpenAIMessages([
        system('sys'),
        user('u1'),
        assistant('thinking', [call, broken]),
        { role: 'tool', toolCallId: 'call_9', name: 'lookup', content: '{"found":true}' },
        { role: 'tool', toolCallId: 'call_10', content: 'error: bad arguments' },
        assistant('done'),
      ]),
      [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'u1' },
        {
          role: 'assistant',
          content: 'thinking',
          tool_calls: [
            { id: 'call_9', type: 'function', function: { name: 'lookup', arguments: '{ "id" : 3 }' } },
            { id: 'call_10', type: 'function', function: { name: 'lookup', arguments: '{"id":' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_9', content: '{"found":true}' },
        { role: 'tool', tool_call_id: 'call_10', content: 'error: bad arguments' },
        { role: 'assistant', content: 'done' },
      ],
    );
  });

  it('sends no tool_calls field for an assistant message with an empty list', () => {
    assert.deepEqual(convertToOpenAIMessages([{ role: 'assistant', content: 'x', toolCalls: [] }]), [{ role: 'assistant', content: 'x' }]);
  });
});
