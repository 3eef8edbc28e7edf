import assert from 'node:assert/strict';
import { test } from 'node:test';
import { composedUserMessage, joinTextParts, sharedText, system, user, type TextParts } from '../../core/index.js';
import { inputFromJson, inputToJson, RunTexts } from './sample-input.js';

const template = sharedText('A long template shared by every sample. '.repeat(20));
const toolA = sharedText('. tool name: A, tool description: finds things\n');
const toolB = sharedText('. tool name: B, tool description: books things\n');

test('a composed message is stored as literals and numbers, each shared text numbered once, and reads back exactly', () => {
  const texts = new RunTexts();
  const first: TextParts = [template, 'query one', '1', toolA, '2', toolB];
  const second: TextParts = [template, 'query two', '1', toolB, '2', toolA];
  const json1 = inputToJson([system('be brief'), composedUserMessage(() => first)], texts);
  assert.deepEqual(texts.takeNew(), [
    { id: 0, text: template.shared },
    { id: 1, text: toolA.shared },
    { id: 2, text: toolB.shared },
  ]);
  const json2 = inputToJson([composedUserMessage(() => second)], texts);
  assert.deepEqual(texts.takeNew(), []); // nothing new: the second sample only refers to them
  assert.equal(json2, '[{"role":"user","contentParts":[0,"query two","1",2,"2",1]}]');
  assert.ok(!json1.includes('A long template'), 'the shared text is not in the row');

  const all = [template.shared, toolA.shared, toolB.shared];
  assert.deepEqual(inputFromJson(json1, all, 'sample s1'), [system('be brief'), user(joinTextParts(first))]);
  assert.deepEqual(inputFromJson(json2, all, 'sample s2'), [user(joinTextParts(second))]);
});

test('plain messages are stored as their JSON', () => {
  const input = [system('s'), user('u "quoted" \\ text')];
  const json = inputToJson(input, new RunTexts());
  assert.equal(json, JSON.stringify(input));
  assert.deepEqual(inputFromJson(json, [], 'sample s'), input);
});

test('a part naming a text the run does not have is an error naming the sample, not a wrong prompt', () => {
  assert.throws(() => inputFromJson('[{"role":"user","contentParts":["a",3]}]', ['x'], 'sample s9'), /^Error: sample s9: the stored prompt refers to text #3, which the run does not have/);
});

test('a composed message is written as JSON.stringify writes {role, contentParts}, byte for byte (quotes, escapes, unicode, empty literals)', () => {
  const texts = new RunTexts(7);
  const parts: TextParts = [template, 'say "hi" \\ back\n\ttab', '', toolA, 'caf\u00e9 \u2028 \ud83d\ude00 \u0001', toolA, '42'];
  const json = inputToJson([system('s'), composedUserMessage(() => parts), user('u')], texts);
  const expected = JSON.stringify([system('s'), { role: 'user', contentParts: [7, 'say "hi" \\ back\n\ttab', '', 8, 'caf\u00e9 \u2028 \ud83d\ude00 \u0001', 8, '42'] }, user('u')]);
  assert.equal(json, expected);
});
