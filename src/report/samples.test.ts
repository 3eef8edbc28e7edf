import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assistant, composedUserMessage, sharedText, system, user, type Sample } from '../core/index.js';
import { renderSampleList, sampleJsonLines, samplePreview } from './samples.js';

const template = sharedText('Choose the right tool for the query below.\n\nQuery: ');
const metatoolLike: Sample = {
  id: 'similar/ABCmouse/0',
  input: [composedUserMessage(() => [template, 'teach my kid\n  to code?'])],
  target: 'ABCmouse',
  metadata: {},
  hints: { kind: 'yes-no', query: 'teach my kid\n  to code?' },
};
const chatLike: Sample = {
  id: 'dialog-1-2',
  input: [system('be brief'), user('first question'), assistant('which city?'), user('  Paris,\n\tplease ')],
  tools: [{ name: 'weather', description: 'weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
  target: { groundTruth: { kind: 'call', name: 'weather' } },
  metadata: {},
};

test('the preview is the question behind the prompt when the sample carries one, else the last user turn, on one line', () => {
  assert.equal(samplePreview(metatoolLike), 'teach my kid to code?');
  assert.equal(samplePreview(chatLike), 'Paris, please');
  const long: Sample = { id: 'x', input: [user('word '.repeat(50))], target: null, metadata: {} };
  const preview = samplePreview(long);
  assert.equal(preview.length, 100);
  assert.ok(preview.endsWith('…'));
  assert.equal(samplePreview({ id: 'y', input: [system('only a system prompt')], target: null, metadata: {} }), '');
});

test('the list has one line per sample with the ids padded to one column', () => {
  assert.equal(renderSampleList([metatoolLike, chatLike]), ['similar/ABCmouse/0  teach my kid to code?', 'dialog-1-2          Paris, please'].join('\n'));
});

test('JSON Lines carry the id, the exact input (a composed prompt read out), the tools when offered and the target', () => {
  const lines = sampleJsonLines([metatoolLike, chatLike]).split('\n');
  assert.equal(lines.length, 3, 'two lines, each ended by a newline');
  assert.equal(lines[2], '');
  const [first, second] = lines.slice(0, 2).map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.deepEqual(first, {
    id: 'similar/ABCmouse/0',
    input: [{ role: 'user', content: 'Choose the right tool for the query below.\n\nQuery: teach my kid\n  to code?' }],
    target: 'ABCmouse',
  });
  assert.deepEqual(second, { id: 'dialog-1-2', input: JSON.parse(JSON.stringify(chatLike.input)), tools: chatLike.tools, target: chatLike.target });
});
