import assert from 'node:assert/strict';
import { test } from 'node:test';
import { editDistance, nearestName } from './nearest-name.js';

test('edit distance counts insertions, deletions and substitutions (hand-computed)', () => {
  assert.equal(editDistance('kitten', 'sitting'), 3); // k→s, e→i, +g
  assert.equal(editDistance('', 'abc'), 3);
  assert.equal(editDistance('abc', 'abc'), 0);
  assert.equal(editDistance('temprature', 'temperature'), 1);
});

test('the nearest name ignores case, "_" and "-", and is refused when too far', () => {
  const keys = ['provider', 'model', 'baseUrl', 'apiKeyEnv', 'headers', 'params'];
  assert.equal(nearestName('api_key_env', keys), 'apiKeyEnv');
  assert.equal(nearestName('base-url', keys), 'baseUrl');
  assert.equal(nearestName('provder', keys), 'provider');
  assert.equal(nearestName('modle', keys), 'model');
  assert.equal(nearestName('zzz', keys), undefined);
  assert.equal(nearestName('url', keys), undefined, 'three letters are not corrected into an unrelated key');
});
