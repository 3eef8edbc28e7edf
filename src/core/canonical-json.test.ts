import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalJson, composedContentJson, sha256 } from './canonical-json.js';
import { composedUserMessage, joinTextParts, plainMessage, sharedText, type TextParts } from './text-parts.js';

test('canonical JSON sorts keys at every level and otherwise matches JSON.stringify', () => {
  assert.equal(canonicalJson({ b: 1, a: { d: [1, 'x', null], c: true } }), '{"a":{"c":true,"d":[1,"x",null]},"b":1}');
  assert.equal(canonicalJson({ a: 1, b: 2 }), canonicalJson({ b: 2, a: 1 }));
  assert.equal(canonicalJson({ a: undefined, b: [undefined, NaN] }), '{"b":[null,null]}');
  assert.equal(canonicalJson('quote " and \n newline'), JSON.stringify('quote " and \n newline'));
  assert.equal(canonicalJson(new Date(0)), '"1970-01-01T00:00:00.000Z"');
  // Keys JSON escapes, written again (their JSON is kept after the first time): the same each time.
  for (let i = 0; i < 2; i++) assert.equal(canonicalJson({ 'q"k': 1, 'b\\s': 2, 'n\nl': 3, ['x'.repeat(70)]: 4 }), JSON.stringify({ 'b\\s': 2, 'n\nl': 3, 'q"k': 1, ['x'.repeat(70)]: 4 }));
  const nested = { z: [{ y: 2, x: 1 }], é: 'ü' };
  assert.deepEqual(JSON.parse(canonicalJson(nested)), nested);
});

test('sha256 is the hex digest', () => {
  assert.equal(sha256('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});

test('keys in order, out of order and in code unit order (upper case before lower, one a prefix of another) sort as Array.prototype.sort does', () => {
  assert.equal(canonicalJson({ a: 1, ab: 2, b: 3 }), '{"a":1,"ab":2,"b":3}');
  assert.equal(canonicalJson({ b: 1, a: 2 }), '{"a":2,"b":1}');
  assert.equal(canonicalJson({ a: 1, B: 2, é: 3, Z: 4 }), '{"B":2,"Z":4,"a":1,"é":3}');
  assert.equal(canonicalJson({ ab: 1, a: 2 }), '{"a":2,"ab":1}');
  // More keys than are sorted by insertion, and fewer, in shuffled orders: as Array.prototype.sort orders them.
  const names = ['z', 'A', 'é', 'a1', 'a', '_', 'B2', 'b', '😀', 'Z', 'y', 'é2', 'm', 'n', 'o', 'p', 'q', 'r', '0', '10', '9'];
  for (const size of [2, 3, 7, 16, 17, names.length]) {
    const shuffled = names.slice(0, size).reverse();
    const object = Object.fromEntries(shuffled.map((name, i) => [name, i]));
    assert.equal(canonicalJson(object), `{${Object.keys(object).sort().map((name) => `${JSON.stringify(name)}:${object[name]}`).join(',')}}`);
  }
});

test('a composed content is written as JSON.stringify writes the joined text, for parts with every kind of character JSON escapes or not', () => {
  // Quote, backslash, control characters, DEL, non-Latin-1, U+2028, both surrogate halves (paired
  // across parts, or lone), plain letters: random parts of them, shared and literal.
  const alphabet = ['"', '\\', '\n', '\u0001', '\u001f', '\u007f', 'é', '—', '\u2028', '\ud83d', '\ude00', '😀', 'a', ' ', '/'];
  let seed = 1;
  const random = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  for (let round = 0; round < 2000; round++) {
    // Short parts (checked character by character) and long ones (by the regular expression).
    const longest = round % 2 === 0 ? 6 : 48;
    const parts: TextParts = Array.from({ length: 1 + random(5) }, () => {
      const text = Array.from({ length: random(longest) }, () => alphabet[random(alphabet.length)]).join('');
      return random(2) === 0 ? text : sharedText(text);
    });
    const expected = JSON.stringify(joinTextParts(parts));
    assert.equal(composedContentJson(composedUserMessage(() => parts)), expected, JSON.stringify(parts));
    assert.equal(composedContentJson(plainMessage(composedUserMessage(() => parts))), expected);
  }
  assert.equal(composedContentJson({ role: 'user', content: 'plain' }), undefined);
});
