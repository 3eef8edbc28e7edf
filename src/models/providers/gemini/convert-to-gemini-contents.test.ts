import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assistant, system, toolCallFromRaw, user } from '../../../core/index.js';
import { convertToGeminiContents } from './convert-to-gemini-contents.js';

const weather = toolCallFromRaw('call_0', 'get_weather', '{"location":"Paris"}');
const time = toolCallFromRaw('call_1', 'get_time', '{"zone":"CET"}');

describe('convertToGeminiContents', () => {
  it('puts system messages in systemInstruction and names the assistant role "model"', () => {
    const out = convertToGeminiContents([system('Be brief.'), user('Hi'), assistant('Hello!'), user('Bye')]);
    assert.deepEqual(out.systemInstruction, { parts: [{ text: 'Be brief.' }] });
    assert.deepEqual(out.contents, [
      { role: 'user', parts: [{ text: 'Hi' }] },
      { role: 'model', parts: [{ text: 'Hello!' }] },
      { role: 'user', parts: [{ text: 'Bye' }] },
    ]);
    assert.deepEqual(out.warnings, []);
    assert.equal(convertToGeminiContents([user('x')]).systemInstruction, undefined);
  });

  it('sends tool calls as functionCall parts and consecutive results as one user turn of functionResponse parts, names looked up by call id', () => {
    const out = convertToGeminiContents([
      user('Weather and time?'),
      assistant('', [weather, time]),
      { role: 'tool', toolCallId: 'call_0', content: '18°C' },
      { role: 'tool', toolCallId: 'call_1', name: 'get_time', content: '14:05' },
    ]);
    assert.deepEqual(out.contents, [
      { role: 'user', parts: [{ text: 'Weather and time?' }] },
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { location: 'Paris' } } }, { functionCall: { name: 'get_time', args: { zone: 'CET' } } }] },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_weather', response: { name: 'get_weather', content: '18°C' } } },
          { functionResponse: { name: 'get_time', response: { name: 'get_time', content: '14:05' } } },
        ],
      },
    ]);
    assert.deepEqual(out.warnings, []);
  });

  it('keeps assistant text before its calls, and warns about malformed arguments, unknown result names and late system messages', () => {
    const broken = toolCallFromRaw('call_9', 'f', 'not json');
    const out = convertToGeminiContents([user('q'), assistant('Checking.', [broken]), { role: 'tool', toolCallId: 'nope', content: 'r' }, system('late')]);
    assert.deepEqual(out.contents[1], { role: 'model', parts: [{ text: 'Checking.' }, { functionCall: { name: 'f', args: {} } }] });
    assert.deepEqual(out.contents[2], { role: 'user', parts: [{ functionResponse: { name: '', response: { name: '', content: 'r' } } }] });
    assert.deepEqual(out.warnings.map((w) => w.feature), ['tool-call-arguments', 'tool-result-name', 'system-message-position']);
  });
});
