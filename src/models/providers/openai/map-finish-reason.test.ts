import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mapOpenAIFinishReason } from './map-finish-reason.js';

describe('mapOpenAIFinishReason', () => {
  it('maps the known wire values', () => {
    assert.equal(mapOpenAIFinishReason('stop'), 'stop');
    assert.equal(mapOpenAIFinishReason('length'), 'length');
    assert.equal(mapOpenAIFinishReason('tool_calls'), 'tool-calls');
    assert.equal(mapOpenAIFinishReason('function_call'), 'tool-calls');
    assert.equal(mapOpenAIFinishReason('content_filter'), 'content-filter');
  });

  it('maps anything else to other', () => {
    assert.equal(mapOpenAIFinishReason('eos'), 'other');
    assert.equal(mapOpenAIFinishReason(null), 'other');
    assert.equal(mapOpenAIFinishReason(undefined), 'other');
  });
});
