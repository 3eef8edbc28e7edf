import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalJson } from './canonical-json.js';
import { user } from './messages.js';
import { composedUserMessage, contentPartsOf, joinTextParts, sharedText } from './text-parts.js';

const head = sharedText('Choose a tool for: ');
const tail = sharedText('\nAnswer with its name.');

test('a composed message reads as the plain message of its joined parts', () => {
  const message = composedUserMessage(() => [head, 'weather in Oslo', tail]);
  const plain = user('Choose a tool for: weather in Oslo\nAnswer with its name.');
  assert.equal(message.content, plain.content);
  assert.equal(message.role, 'user');
  // Serialized, hashed and copied like the plain message: the parts ride along nowhere.
  assert.equal(JSON.stringify(message), JSON.stringify(plain));
  assert.equal(canonicalJson(message), canonicalJson(plain));
  const copy = { ...message };
  assert.deepEqual(copy, plain);
  assert.equal(contentPartsOf(copy), undefined);
});

test('composed messages share one content getter (a closure each gave every message a hidden class of its own, holding its prompt until a full GC); frozen, content enumerable', () => {
  const a = composedUserMessage(() => [head, 'a', tail]);
  const b = composedUserMessage(() => [head, 'b', tail]);
  const getterOf = (m: object) => Object.getOwnPropertyDescriptor(m, 'content')?.get;
  assert.equal(typeof getterOf(a), 'function');
  assert.equal(getterOf(a), getterOf(b));
  assert.deepEqual([a.content, b.content], ['Choose a tool for: a\nAnswer with its name.', 'Choose a tool for: b\nAnswer with its name.']);
  assert.deepEqual(Object.keys(a), ['role', 'content']);
  assert.ok(Object.isFrozen(a));
});

test('contentPartsOf gives the parts of a composed message and nothing for others', () => {
  const message = composedUserMessage(() => [head, 'q', tail]);
  const parts = contentPartsOf(message);
  assert.deepEqual(parts, [head, 'q', tail]);
  assert.equal(parts?.[0], head); // the same shared object, which stores key on
  assert.equal(contentPartsOf(user('plain')), undefined);
});

test('joinTextParts concatenates literal and shared parts in order', () => {
  assert.equal(joinTextParts([]), '');
  assert.equal(joinTextParts(['1', sharedText('. a\n'), '2', sharedText('. b\n')]), '1. a\n2. b\n');
});
