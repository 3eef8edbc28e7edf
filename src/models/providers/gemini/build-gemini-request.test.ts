import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { system, user } from '../../../core/index.js';
import { buildGeminiRequest } from './build-gemini-request.js';

describe('buildGeminiRequest', () => {
  it('maps all five settings to generationConfig (seed included) and leaves it out when none is set', () => {
    assert.deepEqual(buildGeminiRequest({ messages: [user('Hi')], settings: {} }).body, { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] });
    const built = buildGeminiRequest({ messages: [system('S'), user('Hi')], settings: { temperature: 0, topP: 0.5, maxTokens: 64, seed: 42, stop: ['END'] }, hints: { kind: 'yes-no', query: 'secret' } });
    assert.deepEqual(built.body, {
      contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
      systemInstruction: { parts: [{ text: 'S' }] },
      generationConfig: { temperature: 0, topP: 0.5, maxOutputTokens: 64, seed: 42, stopSequences: ['END'] },
    });
    assert.deepEqual(built.warnings, []);
    assert.equal(JSON.stringify(built.body).includes('secret'), false);
  });

  it('sends tools as functionDeclarations with cleaned schemas, leaving parameters out when there are none', () => {
    const built = buildGeminiRequest({
      messages: [user('q')],
      tools: [
        { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } },
        { name: 'now', description: 'Current time', parameters: { type: 'object', properties: {} } },
      ],
      settings: {},
    });
    assert.deepEqual(built.body.tools, [
      {
        functionDeclarations: [
          { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
          { name: 'now', description: 'Current time' },
        ],
      },
    ]);
    assert.deepEqual(built.warnings, [{ type: 'compatibility', feature: 'json-schema', details: 'schema keywords Gemini does not accept were dropped or rewritten: additionalProperties' }]);
  });

  it('asks for JSON with responseMimeType and responseSchema', () => {
    const built = buildGeminiRequest({ messages: [user('Judge')], settings: { temperature: 0.1 }, responseFormat: { type: 'json', name: 'verdict', schema: { type: 'object', properties: { verdict: { type: 'string', enum: ['pass', 'fail'] } }, required: ['verdict'] } } });
    assert.deepEqual(built.body.generationConfig, {
      temperature: 0.1,
      responseMimeType: 'application/json',
      responseSchema: { type: 'object', properties: { verdict: { type: 'string', enum: ['pass', 'fail'] } }, required: ['verdict'] },
    });
  });
});
