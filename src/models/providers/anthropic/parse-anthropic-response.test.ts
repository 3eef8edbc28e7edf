import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ModelCallError } from '../../../core/index.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';
import { parseAnthropicResponse } from './parse-anthropic-response.js';

const options = { requestedModel: 'claude-sonnet-4-5' };

/** The documented tool-use answer: a text block, then a tool_use block, stop_reason tool_use. */
const toolUseResponse = {
  id: 'msg_01Aq9w938a90dw8q',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5',
  content: [
    { type: 'text', text: 'I’ll check the weather.' },
    { type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', input: { location: 'San Francisco, CA', unit: 'celsius' } },
  ],
  stop_reason: 'tool_use',
  stop_sequence: null,
  usage: { input_tokens: 472, output_tokens: 91 },
};

describe('parseAnthropicResponse', () => {
  it('reads text, tool_use blocks (input serialized as rawArguments), stop reason and usage', () => {
    const result = parseAnthropicResponse(JSON.stringify(toolUseResponse), 200, options);
    assert.equal(result.text, 'I’ll check the weather.');
    assert.deepEqual(result.toolCalls, [
      { id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', arguments: { location: 'San Francisco, CA', unit: 'celsius' }, rawArguments: '{"location":"San Francisco, CA","unit":"celsius"}' },
    ]);
    assert.deepEqual(result.finishReason, { unified: 'tool-calls', raw: 'tool_use' });
    assert.deepEqual(result.usage, { inputTokens: 472, outputTokens: 91 });
    assert.deepEqual(result.warnings, []);
    assert.equal(result.responseModel, undefined);
    assert.deepEqual(result.rawResponse, toolUseResponse);
  });

  it('counts prompt-cache writes and reads as input tokens, and reports another model', () => {
    const body = { ...toolUseResponse, model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }], stop_reason: 'end_turn', usage: { input_tokens: 10, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000, output_tokens: 3 } };
    const result = parseAnthropicResponse(JSON.stringify(body), 200, options);
    assert.equal(result.text, 'ab');
    assert.deepEqual(result.usage, { inputTokens: 1110, outputTokens: 3 });
    assert.deepEqual(result.finishReason, { unified: 'stop', raw: 'end_turn' });
    assert.equal(result.responseModel, 'claude-sonnet-4-5-20250929');
  });

  it('records a refusal as an answer: content-filter and a warning, not an error', () => {
    const body = { ...toolUseResponse, content: [{ type: 'text', text: 'I can’t help with that.' }], stop_reason: 'refusal' };
    const result = parseAnthropicResponse(JSON.stringify(body), 200, options);
    assert.equal(result.text, 'I can’t help with that.');
    assert.deepEqual(result.finishReason, { unified: 'content-filter', raw: 'refusal' });
    assert.deepEqual(result.warnings, [{ type: 'other', feature: 'refusal', details: 'I can’t help with that.' }]);
    const empty = parseAnthropicResponse(JSON.stringify({ ...body, content: [] }), 200, options);
    assert.equal(empty.text, '');
    assert.match(empty.warnings[0]?.details ?? '', /stop_reason "refusal"/);
  });

  it('turns the forced response tool back into JSON text with a normal stop, keeping request warnings', () => {
    const body = { ...toolUseResponse, content: [{ type: 'tool_use', id: 'toolu_x', name: 'verdict', input: { reasons: 'ok', verdict: 'pass' } }] };
    const result = parseAnthropicResponse(JSON.stringify(body), 200, { ...options, responseTool: 'verdict', requestWarnings: [{ type: 'compatibility', feature: 'response-format' }] });
    assert.equal(result.text, '{"reasons":"ok","verdict":"pass"}');
    assert.deepEqual(result.toolCalls, []);
    assert.deepEqual(result.finishReason, { unified: 'stop', raw: 'tool_use' });
    assert.deepEqual(result.warnings, [{ type: 'compatibility', feature: 'response-format' }]);
  });

  it('skips unknown blocks (thinking) and gives ids to tool_use blocks without one', () => {
    const body = { content: [{ type: 'thinking', thinking: 'hmm', signature: 's' }, { type: 'tool_use', name: 'f', input: {} }], stop_reason: 'tool_use' };
    const result = parseAnthropicResponse(JSON.stringify(body), 200, options);
    assert.equal(result.text, '');
    assert.deepEqual(result.toolCalls, [{ id: 'toolu_1', name: 'f', arguments: {}, rawArguments: '{}' }]);
    assert.deepEqual(result.usage, {});
  });

  it('throws bad-response for a body that is not JSON or has no content array', () => {
    for (const text of ['{"content":', '[1]', '{"type":"message"}']) {
      assert.throws(() => parseAnthropicResponse(text, 200, options), (error: unknown) => error instanceof ModelCallError && error.kind === 'bad-response');
    }
  });
});

describe('mapAnthropicStopReason', () => {
  it('maps every documented stop reason', () => {
    const raws = ['end_turn', 'stop_sequence', 'max_tokens', 'model_context_window_exceeded', 'tool_use', 'refusal', 'pause_turn', undefined];
    assert.deepEqual(raws.map(mapAnthropicStopReason), ['stop', 'stop', 'length', 'length', 'tool-calls', 'content-filter', 'other', 'other']);
  });
});
