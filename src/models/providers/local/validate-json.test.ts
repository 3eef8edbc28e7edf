import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateJson } from './validate-json.js';

const schema = {
  type: 'object',
  properties: {
    city: { type: 'string', maxLength: 5, pattern: '^[A-Z]' },
    days: { type: 'integer', minimum: 1, maximum: 7 },
    units: { enum: ['metric', 'imperial'] },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 2 },
  },
  required: ['city', 'days'],
  additionalProperties: false,
};

test('validateJson: a valid value has no problems', () => {
  assert.deepEqual(validateJson({ city: 'Paris', days: 3, units: 'metric', tags: ['a'] }, schema), []);
  assert.deepEqual(validateJson('anything', {}), []);
});

test('validateJson: each broken rule is reported with its path', () => {
  assert.deepEqual(validateJson({ city: 'paris!', days: 0, units: 'kelvin', tags: ['a', 'b', 3], extra: 1 }, schema), [
    '$.city: longer than 5 characters',
    '$.city: does not match /^[A-Z]/',
    '$.days: less than 1',
    '$.units: "kelvin" is not one of ["metric","imperial"]',
    '$.tags: more than 2 items',
    '$.tags[2]: expected string, got integer 3',
    '$: unexpected property "extra"',
  ]);
  assert.deepEqual(validateJson({ city: 'P' }, schema), ['$: missing required property "days"']);
  assert.deepEqual(validateJson([], schema), ['$: expected object, got array']);
});

test('validateJson: the exponent-form integer quirk (Infinity, or beyond 2^53) is invalid', () => {
  const parsed = JSON.parse('{"city": "Paris", "days": 8e602761384133}') as unknown;
  assert.deepEqual(validateJson(parsed, schema), ['$: contains a number that is not finite (e.g. an exponent too large for a double)']);
  assert.deepEqual(validateJson({ city: 'Paris', days: 68e15 }, schema), ['$.days: expected integer, got number 68000000000000000']);
  // Even where the schema says nothing about the value.
  assert.equal(validateJson({ free: [1, Infinity] }, { type: 'object' }).length, 1);
});

test('validateJson: anyOf / oneOf / allOf, type lists and const', () => {
  const either = { oneOf: [{ type: 'string' }, { type: 'integer' }] };
  assert.deepEqual(validateJson(3, either), []);
  assert.deepEqual(validateJson(true, either), ['$: matches 0 of oneOf, expected exactly 1']);
  assert.deepEqual(validateJson(1, { oneOf: [{ type: 'number' }, { type: 'integer' }] }), ['$: matches 2 of oneOf, expected exactly 1']);
  assert.deepEqual(validateJson(null, { anyOf: [{ type: 'string' }, { type: 'null' }] }), []);
  assert.deepEqual(validateJson(2, { allOf: [{ minimum: 3 }] }), ['$: less than 3']);
  assert.deepEqual(validateJson(null, { type: ['string', 'null'] }), []);
  assert.deepEqual(validateJson('b', { const: 'a' }), ['$: expected "a", got "b"']);
});
