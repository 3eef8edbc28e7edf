import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ModelCallError } from '../../../core/index.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';
import { parseGeminiResponse } from './parse-gemini-response.js';

const options = { requestedModel: 'gemini-2.5-flash' };
const parse = (body: unknown) => parseGeminiResponse(JSON.stringify(body), 200, options);

describe('parseGeminiResponse', () => {
  it('reads text parts, usage and the finish reason', () => {
    const body = {
      candidates: [{ content: { role: 'model', parts: [{ text: 'Hello' }, { text: ' there' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 8, candidatesTokenCount: 2, totalTokenCount: 10 },
      modelVersion: 'gemini-2.5-flash',
    };
    const result = parse(body);
    assert.equal(result.text, 'Hello there');
    assert.deepEqual(result.toolCalls, []);
    assert.deepEqual(result.finishReason, { unified: 'stop', raw: 'STOP' });
    assert.deepEqual(result.usage, { inputTokens: 8, outputTokens: 2 });
    assert.equal(result.responseModel, undefined);
    assert.equal(parseGeminiResponse(JSON.stringify(body), 200, { requestedModel: 'models/gemini-2.5-flash' }).responseModel, undefined);
    assert.deepEqual(result.rawResponse, body);
  });

  it('reads functionCall parts as tool calls (STOP with calls is tool-calls), counting thoughts as output and skipping thought parts', () => {
    const result = parse({
      candidates: [{ content: { role: 'model', parts: [{ text: 'plan…', thought: true }, { functionCall: { name: 'get_weather', args: { location: 'Paris' } } }, { functionCall: { id: 'fc-7', name: 'get_time', args: {} } }] }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 30, candidatesTokenCount: 12, thoughtsTokenCount: 100 },
      modelVersion: 'gemini-2.5-flash-001',
    });
    assert.equal(result.text, '');
    assert.deepEqual(result.toolCalls, [
      { id: 'call_0', name: 'get_weather', arguments: { location: 'Paris' }, rawArguments: '{"location":"Paris"}' },
      { id: 'fc-7', name: 'get_time', arguments: {}, rawArguments: '{}' },
    ]);
    assert.deepEqual(result.finishReason, { unified: 'tool-calls', raw: 'STOP' });
    assert.deepEqual(result.usage, { inputTokens: 30, outputTokens: 112 });
    assert.equal(result.responseModel, 'gemini-2.5-flash-001');
  });

  it('records a candidate stopped by SAFETY as a content-filter output with the flagged ratings', () => {
    const result = parse({
      candidates: [
        {
          finishReason: 'SAFETY',
          index: 0,
          safetyRatings: [
            { category: 'HARM_CATEGORY_SEXUALLY_EXPLICIT', probability: 'NEGLIGIBLE' },
            { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true },
            { category: 'HARM_CATEGORY_HARASSMENT', probability: 'MEDIUM' },
          ],
        },
      ],
      usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 },
    });
    assert.equal(result.text, '');
    assert.deepEqual(result.finishReason, { unified: 'content-filter', raw: 'SAFETY' });
    assert.deepEqual(result.warnings, [{ type: 'other', feature: 'safety-block', details: 'finishReason SAFETY (HARM_CATEGORY_DANGEROUS_CONTENT=HIGH, HARM_CATEGORY_HARASSMENT=MEDIUM)' }]);
    assert.deepEqual(result.usage, { inputTokens: 9, outputTokens: 0 });
  });

  it('records a blocked prompt (no candidates, promptFeedback.blockReason) as a content-filter output with empty text', () => {
    const result = parse({
      promptFeedback: { blockReason: 'SAFETY', safetyRatings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', probability: 'HIGH' }] },
      usageMetadata: { promptTokenCount: 12, totalTokenCount: 12 },
      modelVersion: 'gemini-2.5-flash',
    });
    assert.equal(result.text, '');
    assert.deepEqual(result.toolCalls, []);
    assert.deepEqual(result.finishReason, { unified: 'content-filter', raw: 'SAFETY' });
    assert.deepEqual(result.warnings, [{ type: 'other', feature: 'prompt-blocked', details: 'promptFeedback.blockReason SAFETY (HARM_CATEGORY_HATE_SPEECH=HIGH)' }]);
    assert.deepEqual(result.usage, { inputTokens: 12, outputTokens: 0 });
  });

  it('records RECITATION as content-filter and MAX_TOKENS as length, keeping partial text', () => {
    const recitation = parse({ candidates: [{ content: { parts: [{ text: 'Once upon' }] }, finishReason: 'RECITATION' }] });
    assert.deepEqual(recitation.finishReason, { unified: 'content-filter', raw: 'RECITATION' });
    assert.equal(recitation.text, 'Once upon');
    assert.deepEqual(parse({ candidates: [{ content: { parts: [{ text: 'cut' }] }, finishReason: 'MAX_TOKENS' }] }).finishReason, { unified: 'length', raw: 'MAX_TOKENS' });
  });

  it('throws bad-response for no candidate without a block reason, or a body that is not JSON', () => {
    const bad = (error: unknown) => error instanceof ModelCallError && error.kind === 'bad-response';
    assert.throws(() => parse({ usageMetadata: { promptTokenCount: 1 } }), bad);
    assert.throws(() => parse({ candidates: [] }), bad);
    assert.throws(() => parseGeminiResponse('{"candidates":[', 200, options), bad);
  });
});

describe('mapGeminiFinishReason', () => {
  it('maps the documented finish reasons', () => {
    const raws = ['STOP', 'MAX_TOKENS', 'SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'MALFORMED_FUNCTION_CALL', 'LANGUAGE', 'OTHER', undefined];
    assert.deepEqual(raws.map((raw) => mapGeminiFinishReason(raw, false)), ['stop', 'length', 'content-filter', 'content-filter', 'content-filter', 'content-filter', 'content-filter', 'other', 'other', 'other', 'other']);
    assert.equal(mapGeminiFinishReason('STOP', true), 'tool-calls');
  });
});
