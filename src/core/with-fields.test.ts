import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withFields } from './with-fields.js';

test('withFields gives what the spread gives: keys in the same order, an overridden key in its first place, undefined values kept', () => {
  const base = { model: 'm', settings: { temperature: 0 }, tools: undefined, id: 's1' };
  const cases: [object, object][] = [
    [base, { settings: { temperature: 0, seed: 3 } }],
    [base, { attempt: 2, output: null }],
    [{}, { a: 1 }],
    [base, {}],
    [{ b: 1, a: 2 }, { c: 3, b: 4 }],
  ];
  for (const [a, b] of cases) {
    const spread = { ...a, ...b };
    const built = withFields(a, b);
    assert.deepEqual(Object.keys(built), Object.keys(spread));
    assert.deepEqual(built, spread);
    assert.equal(JSON.stringify(built), JSON.stringify(spread));
  }
  // The inputs are not changed.
  assert.deepEqual(Object.keys(base), ['model', 'settings', 'tools', 'id']);
});

test('withFields defines an own __proto__ key as data, as the spread does, and never changes the prototype', () => {
  const parsed = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as object;
  const spread = { ...parsed, b: 2 };
  const built = withFields(parsed, { b: 2 });
  assert.equal(Object.getPrototypeOf(built), Object.prototype);
  assert.equal((built as Record<string, unknown>)['polluted'], undefined);
  assert.deepEqual(Object.keys(built), Object.keys(spread));
  assert.equal(JSON.stringify(built), JSON.stringify(spread));
  assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
});
