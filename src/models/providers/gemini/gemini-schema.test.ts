import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isEmptyObjectSchema, toGeminiSchema } from './gemini-schema.js';

describe('toGeminiSchema', () => {
  it('keeps the OpenAPI subset and drops what Gemini rejects, naming it', () => {
    const input = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      title: 'Args',
      additionalProperties: false,
      properties: {
        city: { type: 'string', description: 'City name', minLength: 1, default: 'Paris' },
        days: { type: 'integer', minimum: 1, maximum: 7, exclusiveMaximum: 8 },
        tags: { type: 'array', items: { type: 'string', format: 'email' }, maxItems: 3, uniqueItems: true },
      },
      required: ['city'],
    };
    const { schema, dropped } = toGeminiSchema(input);
    assert.deepEqual(schema, {
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name', minLength: 1 },
        days: { type: 'integer', minimum: 1, maximum: 7 },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
      },
      required: ['city'],
    });
    assert.deepEqual(dropped, ['$schema', 'additionalProperties', 'default', 'exclusiveMaximum', 'format "email"', 'title', 'uniqueItems']);
    assert.equal((input.properties.city as Record<string, unknown>).default, 'Paris', 'the input is not modified');
  });

  it('rewrites nullable type arrays, const, oneOf; keeps string enums and known formats', () => {
    const { schema, dropped } = toGeminiSchema({
      type: 'object',
      properties: {
        note: { type: ['string', 'null'] },
        either: { type: ['string', 'number'] },
        mode: { const: 'fast' },
        level: { type: 'string', enum: ['low', 'high'] },
        code: { type: 'integer', enum: [1, 2] },
        when: { type: 'string', format: 'date-time' },
        shape: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
      },
    });
    assert.deepEqual(schema, {
      type: 'object',
      properties: {
        note: { type: 'string', nullable: true },
        either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        mode: { enum: ['fast'] },
        level: { type: 'string', enum: ['low', 'high'] },
        code: { type: 'integer' },
        when: { type: 'string', format: 'date-time' },
        shape: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      },
    });
    assert.deepEqual(dropped, ['enum (non-string values)', 'oneOf (sent as anyOf)']);
  });

  it('recognizes an object schema without properties', () => {
    assert.equal(isEmptyObjectSchema({ type: 'object' }), true);
    assert.equal(isEmptyObjectSchema({ type: 'object', properties: {} }), true);
    assert.equal(isEmptyObjectSchema({ type: 'object', properties: { a: { type: 'string' } } }), false);
  });
});
