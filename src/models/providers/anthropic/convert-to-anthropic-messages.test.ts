import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assistant, system, toolCallFromRaw, user, type Message } from '../../../core/index.js';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';

const weather = toolCallFromRaw('toolu_01', 'get_weather', '{"location":"Paris"}');
const time = toolCallFromRaw('toolu_02', 'get_time', '{"zone":"CET"}');

describe('convertToAnthropicMessages', () => {
  it('moves system messages to the top-level system, joined by a blank line', () => {
    const out = convertToAnthropicMessages([system('Be brief.'), system('Answer in French.'), user('Hi')]);
    assert.equal(out.system, 'Be brief.\n\nAnswer in French.');
    assert.deepEqual(out.messages, [{ role: 'user', content: 'Hi' }]);
    assert.deepEqual(out.warnings, []);
  });

  it('has no system field without system messages, and warns about a system message mid-conversation', () => {
    assert.equal(convertToAnthropicMessages([user('Hi')]).system, undefined);
    const out = convertToAnthropicMessages([user('Hi'), system('late rule')]);
    assert.equal(out.system, 'late rule');
    assert.deepEqual(out.warnings.map((w) => w.feature), ['system-message-position']);
  });

  it('turns assistant tool calls into tool_use blocks and consecutive tool results into one user message of tool_result blocks', () => {
    const messages: Message[] = [
      user('Weather and time in Paris?'),
      assistant('Let me check.', [weather, time]),
      { role: 'tool', toolCallId: 'toolu_01', name: 'get_weather', content: '18°C, cloudy' },
      { role: 'tool', toolCallId: 'toolu_02', content: '14:05' },
      user('Thanks. And tomorrow?'),
    ];
    const out = convertToAnthropicMessages(messages);
    assert.deepEqual(out.messages, [
      { role: 'user', content: 'Weather and time in Paris?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { location: 'Paris' } },
          { type: 'tool_use', id: 'toolu_02', name: 'get_time', input: { zone: 'CET' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01', content: '18°C, cloudy' },
          { type: 'tool_result', tool_use_id: 'toolu_02', content: '14:05' },
        ],
      },
      { role: 'user', content: 'Thanks. And tomorrow?' },
    ]);
  });

  it('leaves out an empty text block before tool calls, and keeps plain assistant text as a string', () => {
    const out = convertToAnthropicMessages([user('q'), assistant('', [weather]), { role: 'tool', toolCallId: 'toolu_01', content: 'r' }, assistant('done')]);
    assert.deepEqual(out.messages[1], { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { location: 'Paris' } }] });
    assert.deepEqual(out.messages[3], { role: 'assistant', content: 'done' });
  });

  it('sends a malformed tool call with input {} and says so', () => {
    const broken = toolCallFromRaw('toolu_09', 'get_weather', '{"location": Par');
    const array = toolCallFromRaw('toolu_10', 'get_weather', '[1,2]');
    const out = convertToAnthropicMessages([user('q'), assistant('', [broken, array])]);
    assert.deepEqual(out.messages[1], {
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'toolu_09', name: 'get_weather', input: {} },
        { type: 'tool_use', id: 'toolu_10', name: 'get_weather', input: {} },
      ],
    });
    assert.equal(out.warnings.length, 2);
    assert.match(out.warnings[0]?.details ?? '', /toolu_09.*\{"location": Par/);
  });

  it('starts a new tool_result message after a user or assistant message in between', () => {
    const out = convertToAnthropicMessages([
      user('q'),
      assistant('', [weather]),
      { role: 'tool', toolCallId: 'toolu_01', content: 'a' },
      assistant('', [time]),
      { role: 'tool', toolCallId: 'toolu_02', content: 'b' },
    ]);
    assert.equal(out.messages.length, 5);
    assert.deepEqual(out.messages[4], { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_02', content: 'b' }] });
  });
});
