import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Message } from '../../../core/index.js';
import { convertToLlamaHistory } from './convert-to-llama-history.js';

const conversation: Message[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Weather in Paris?' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Paris' }, rawArguments: '{"city":"Paris"}' }] },
  { role: 'tool', toolCallId: 'c1', name: 'get_weather', content: '21 C' },
  { role: 'assistant', content: 'It is 21 C.' },
  { role: 'user', content: 'Thanks' },
];

test('convertToLlamaHistory (native): tool calls carry the result of their tool message', () => {
  assert.deepEqual(convertToLlamaHistory(conversation, true), [
    { type: 'system', text: 'Be brief.' },
    { type: 'user', text: 'Weather in Paris?' },
    { type: 'model', response: [{ type: 'functionCall', name: 'get_weather', params: { city: 'Paris' }, result: '21 C' }] },
    { type: 'model', response: ['It is 21 C.'] },
    { type: 'user', text: 'Thanks' },
  ]);
});

test('convertToLlamaHistory (grammar mode): calls as the grammar JSON, results as user turns, raw arguments kept', () => {
  const malformed: Message[] = [{ role: 'assistant', content: 'ok', toolCalls: [{ id: 'c9', name: 'f', arguments: undefined, rawArguments: '{"x": 1e999}', parseError: 'x' }] }];
  assert.deepEqual(convertToLlamaHistory([...conversation.slice(2, 4), ...malformed], false), [
    { type: 'model', response: ['{"name": "get_weather", "arguments": {"city":"Paris"}}'] },
    { type: 'user', text: 'Result of tool get_weather:\n21 C' },
    { type: 'model', response: ['ok\n{"name": "f", "arguments": {"x": 1e999}}'] },
  ]);
});
