import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ANY_VALUE, toGrammarSchema, toolCallGrammarSchema } from './to-grammar-schema.js';

test('toGrammarSchema: keeps what the grammar can enforce, drops the rest, closes objects', () => {
  assert.deepEqual(
    toGrammarSchema({
      type: 'object',
      properties: {
        q: { type: 'string', maxLength: 20, pattern: 'x', description: 'query' },
        n: { type: 'integer', minimum: 1, default: 3 },
        when: { type: 'string', format: 'date' },
        mode: { enum: ['a', 'b', { bad: 1 }] },
        list: { type: 'array', items: { type: 'number' }, maxItems: 3 },
        maybe: { type: ['string', 'null'] },
        ref: { $ref: '#/$defs/x' },
      },
      required: ['q', 'missing'],
    }),
    {
      type: 'object',
      properties: {
        q: { type: 'string', maxLength: 20, description: 'query' },
        n: { type: 'integer' },
        when: { type: 'string', format: 'date' },
        mode: { enum: ['a', 'b'] },
        list: { type: 'array', items: { type: 'number' }, maxItems: 3 },
        maybe: { type: ['string', 'null'] },
        ref: ANY_VALUE,
      },
      required: ['q'],
      additionalProperties: false,
    },
  );
  assert.deepEqual(toGrammarSchema({ type: 'object' }), { type: 'object', properties: {}, required: [], additionalProperties: true });
  assert.deepEqual(toGrammarSchema({ anyOf: [{ type: 'string' }, { const: 1 }] }), { oneOf: [{ type: 'string' }, { const: 1 }] });
  assert.equal(toGrammarSchema('nonsense'), ANY_VALUE);
});

test('toolCallGrammarSchema: one alternative per tool, name fixed, arguments per that tool', () => {
  const tools = [
    { name: 'a', parameters: { type: 'object', properties: { x: { type: 'integer' } }, required: ['x'] } },
    { name: 'b', parameters: {} },
  ];
  const schema = toolCallGrammarSchema(tools) as { oneOf: Array<{ properties: { name: unknown; arguments: unknown } }> };
  assert.equal(schema.oneOf.length, 2);
  assert.deepEqual(schema.oneOf[0]?.properties.name, { const: 'a' });
  assert.deepEqual(schema.oneOf[0]?.properties.arguments, { type: 'object', properties: { x: { type: 'integer' } }, required: ['x'], additionalProperties: false });
  assert.deepEqual(schema.oneOf[1]?.properties.arguments, { type: 'object', properties: {}, required: [], additionalProperties: true });
  assert.deepEqual((toolCallGrammarSchema([tools[0] as (typeof tools)[0]]) as { properties: { name: unknown } }).properties.name, { const: 'a' });
});
