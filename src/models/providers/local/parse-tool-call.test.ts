import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ToolSpec } from '../../../core/index.js';
import { mapLlamaStopReason } from './map-stop-reason.js';
import { rawMemberText, toolCallFromGrammarText } from './parse-tool-call.js';

const tools: ToolSpec[] = [
  { name: 'get_weather', description: 'w', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city', 'days'] } },
  { name: 'noop', description: 'n', parameters: { type: 'object', properties: {} } },
];

test('rawMemberText: the value of a key exactly as written', () => {
  const text = '{ "name": "a \\" }", "arguments": {"days":8e602761384133, "s": "}]"} , "z": [1]}';
  assert.equal(rawMemberText(text, 'arguments'), '{"days":8e602761384133, "s": "}]"}');
  assert.equal(rawMemberText(text, 'name'), '"a \\" }"');
  assert.equal(rawMemberText(text, 'z'), '[1]');
  assert.equal(rawMemberText(text, 'missing'), undefined);
  assert.equal(rawMemberText('not json', 'name'), undefined);
});

test('toolCallFromGrammarText: a valid call becomes a canonical ToolCall', () => {
  assert.deepEqual(toolCallFromGrammarText('{"name": "get_weather", "arguments": {"city": "Paris", "days": 2}}', tools, 'call_1'), {
    id: 'call_1',
    name: 'get_weather',
    arguments: { city: 'Paris', days: 2 },
    rawArguments: '{"city": "Paris", "days": 2}',
  });
});

test('toolCallFromGrammarText: every failure is a recorded parseError, never a throw', () => {
  const quirk = toolCallFromGrammarText('{"name": "get_weather", "arguments": {"city": "P", "days": 8e602761384133}}', tools, 'c');
  assert.equal(quirk.name, 'get_weather');
  assert.equal(quirk.arguments, undefined);
  assert.equal(quirk.rawArguments, '{"city": "P", "days": 8e602761384133}', 'what the model wrote, not "null"');
  assert.match(quirk.parseError ?? '', /schema of get_weather: .*not finite/);

  const truncated = toolCallFromGrammarText('{"name": "get_weather", "argum', tools, 'c');
  assert.deepEqual([truncated.name, truncated.arguments, truncated.rawArguments], ['', undefined, '{"name": "get_weather", "argum']);
  assert.match(truncated.parseError ?? '', /not JSON/);

  assert.match(toolCallFromGrammarText('{"name": "rm_rf", "arguments": {}}', tools, 'c').parseError ?? '', /not one of the offered tools/);
  assert.match(toolCallFromGrammarText('[1]', tools, 'c').parseError ?? '', /string "name"/);
  assert.match(toolCallFromGrammarText('{"name": "get_weather", "arguments": {"city": "P"}}', tools, 'c').parseError ?? '', /missing required property "days"/);
  assert.equal(toolCallFromGrammarText('{"name": "noop", "arguments": {}}', tools, 'c').parseError, undefined);
});

test('mapLlamaStopReason', () => {
  assert.equal(mapLlamaStopReason('eogToken', false), 'stop');
  assert.equal(mapLlamaStopReason('stopGenerationTrigger', true), 'tool-calls');
  assert.equal(mapLlamaStopReason('functionCalls', true), 'tool-calls');
  assert.equal(mapLlamaStopReason('maxTokens', true), 'length');
  assert.equal(mapLlamaStopReason('abort', false), 'error');
  assert.equal(mapLlamaStopReason('something new', false), 'other');
});
