import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalJson, sha256 } from './canonical-json.js';

test('canonical JSON sorts keys at every level and otherwise matches JSON.stringify', () => {
  assert.equal(canonicalJson({ b: 1, a: { d: [1, 'x', null], c: true } }), '{"a":{"c":true,"d":[1,"x",null]},"b":1}');
  assert.equal(canonicalJson({ a: 1, b: 2 }), canonicalJson({ b: 2, a: 1 }));
  assert.equal(canonicalJson({ a: undefined, b: [undefined, NaN] }), '{"b":[null,null]}');
  assert.equal(canonicalJson('quote " and \n newline'), JSON.stringify('quote " and \n newline'));
  assert.equal(canonicalJson(new Date(0)), '"1970-01-01T00:00:00.000Z"');
  const nested = { z: [{ y: 2, x: 1 }], é: 'ü' };
  assert.deepEqual(JSON.parse(canonicalJson(nested)), nested);
});

test('sha256 is the hex digest', () => {
  assert.equal(sha256('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});
