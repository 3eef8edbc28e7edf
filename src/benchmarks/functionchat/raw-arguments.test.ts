import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { topLevelLiterals } from './raw-arguments.js';

describe('topLevelLiterals', () => {
  it('returns the source text of each top-level value', () => {
    const text = '{ "a" : 3.0, "b":"x, \\"y\\" }", "c": {"d": [1, "]"]}, "e":true ,"f":-1e3 }';
    assert.deepEqual([...(topLevelLiterals(text) ?? [])], [
      ['a', '3.0'],
      ['b', '"x, \\"y\\" }"'],
      ['c', '{"d": [1, "]"]}'],
      ['e', 'true'],
      ['f', '-1e3'],
    ]);
  });
  it('handles an empty object and escaped keys', () => {
    assert.deepEqual([...(topLevelLiterals(' {} ') ?? [])], []);
    assert.deepEqual([...(topLevelLiterals('{"k\\u00e9y": 1}') ?? [])], [['kéy', '1']]);
  });
  it('is undefined for text that is not a JSON object', () => {
    assert.equal(topLevelLiterals('[1]'), undefined);
    assert.equal(topLevelLiterals('{"a": 1'), undefined);
    assert.equal(topLevelLiterals('{"a" 1}'), undefined);
  });
});
