import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { system, user, type GenerateRequest } from '../../../core/index.js';
import { buildAnthropicRequest, DEFAULT_ANTHROPIC_MAX_TOKENS } from './build-anthropic-request.js';

const weatherTool = { name: 'get_weather', description: 'Current weather', parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } };

describe('buildAnthropicRequest', () => {
  it('sends max_tokens 1024 when the run sets none, and maps the settings by name', () => {
    const plain = buildAnthropicRequest('claude-x', { messages: [user('Hi')], settings: {} });
    assert.deepEqual(plain.body, { model: 'claude-x', max_tokens: DEFAULT_ANTHROPIC_MAX_TOKENS, messages: [{ role: 'user', content: 'Hi' }] });
    assert.equal(DEFAULT_ANTHROPIC_MAX_TOKENS, 1024);
    const full = buildAnthropicRequest('claude-x', { messages: [system('S'), user('Hi')], settings: { temperature: 0.2, topP: 0.9, maxTokens: 50, stop: ['END'] } });
    assert.deepEqual(full.body, { model: 'claude-x', max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }], system: 'S', temperature: 0.2, top_p: 0.9, stop_sequences: ['END'] });
    assert.deepEqual(full.warnings, []);
  });

  it('drops the seed with an unsupported warning', () => {
    const built = buildAnthropicRequest('m', { messages: [user('Hi')], settings: { seed: 7 } });
    assert.equal('seed' in built.body, false);
    assert.deepEqual(built.warnings.map((w) => [w.type, w.feature]), [['unsupported', 'seed']]);
  });

  it('sends tools with their JSON schema as input_schema, and never the reference hints', () => {
    const request: GenerateRequest = { messages: [user('Weather?')], tools: [weatherTool], settings: {}, hints: { kind: 'yes-no', query: 'secret' } };
    const built = buildAnthropicRequest('m', request);
    assert.deepEqual(built.body.tools, [{ name: 'get_weather', description: 'Current weather', input_schema: weatherTool.parameters }]);
    assert.equal(JSON.stringify(built.body).includes('secret'), false);
  });

  it('sends a response format as a forced tool whose input_schema is the schema', () => {
    const schema = { type: 'object', properties: { verdict: { type: 'string', enum: ['pass', 'fail'] } }, required: ['verdict'] };
    const built = buildAnthropicRequest('m', { messages: [user('Judge this')], settings: {}, responseFormat: { type: 'json', name: 'judge verdict', schema } });
    assert.equal(built.responseTool, 'judge_verdict');
    assert.deepEqual(built.body.tools, [{ name: 'judge_verdict', description: 'Give the answer as JSON matching this schema (judge verdict).', input_schema: schema }]);
    assert.deepEqual(built.body.tool_choice, { type: 'tool', name: 'judge_verdict' });
    assert.deepEqual(built.warnings.map((w) => [w.type, w.feature]), [['compatibility', 'response-format']]);
  });

  it('drops a response format beside the request’s own tools, or with a non-object schema, with a warning', () => {
    const withTools = buildAnthropicRequest('m', { messages: [user('q')], tools: [weatherTool], settings: {}, responseFormat: { type: 'json', name: 'x', schema: { type: 'object' } } });
    assert.equal(withTools.responseTool, undefined);
    assert.equal(withTools.body.tool_choice, undefined);
    assert.equal(withTools.body.tools?.length, 1);
    assert.deepEqual(withTools.warnings.map((w) => [w.type, w.feature]), [['unsupported', 'response-format']]);
    const arraySchema = buildAnthropicRequest('m', { messages: [user('q')], settings: {}, responseFormat: { type: 'json', name: 'x', schema: { type: 'array' } } });
    assert.equal(arraySchema.body.tools, undefined);
    assert.deepEqual(arraySchema.warnings.map((w) => w.type), ['unsupported']);
  });
});
