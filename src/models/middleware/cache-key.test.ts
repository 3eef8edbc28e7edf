import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalJson, composedUserMessage, plainMessage, sha256, sharedText, type GenerateRequest, type Message, type TextParts } from '../../core/index.js';
import { requestFor } from '../../runner/sample-work.js';
import { callCacheKey } from './model.js';

// Parts that exercise the escaping: quotes, backslash, control characters, non-Latin-1 text, a
// line separator, an empty part, and a surrogate pair split between two shared stretches.
const head = sharedText('Tools:\n"quoted"\t\\ back\u0001 é 😀 \ud83d');
const tail = sharedText('\ude00 end\n');
const parts: TextParts = [head, 'query with "quotes"', tail, '', '1', sharedText('line \u2028 x')];
const composed = (): Message => composedUserMessage(() => parts);
const settings = { temperature: 0, maxTokens: 50 };

test('the cache key of a request with a composed prompt is the one assay computed before keys were written from parts', () => {
  const request = requestFor({ id: 's', input: [{ role: 'system', content: 'sys' }, composed()], target: null, metadata: {} }, settings);
  // Computed with c993061 (content escaped whole) for this exact request: stored cache entries keep answering.
  assert.equal(callCacheKey('openai:m', request), '93dd516c213d871e6c7afa72a26af52329b7fe10c397ef2a8d36adb69241fccb');
  const withMore: GenerateRequest = {
    ...request,
    tools: [{ name: 't', description: 'd', parameters: { type: 'object', properties: { b: { type: 'string' }, a: { type: 'number' } } } }],
    responseFormat: { type: 'json' },
  } as unknown as GenerateRequest;
  assert.equal(callCacheKey('openai:m', withMore), '9e53c919f27f341829a2c6880c7f8c045d1d0f15e701e16b862ad054ab502fda');
});

test('a composed message and its plain copy write the canonical JSON of the plain message with the joined text', () => {
  const joined = parts.map((p) => (typeof p === 'string' ? p : p.shared)).join('');
  const expected = `{"content":${JSON.stringify(joined)},"role":"user"}`;
  assert.equal(canonicalJson(composed()), expected);
  const copy = plainMessage(composed());
  assert.equal(copy.content, joined);
  assert.deepEqual(Object.keys(copy), ['role', 'content']);
  assert.equal(canonicalJson(copy), expected);
  assert.equal(canonicalJson({ role: 'user', content: joined }), expected);
  // A second use of the same shared stretches (their JSON now cached) writes the same.
  assert.equal(canonicalJson(plainMessage(composed())), expected);
});

test('a split surrogate pair between parts is written as the joined text is (a pair, not two escapes)', () => {
  const message = composedUserMessage(() => ['a\ud83d', '\ude00b']);
  assert.equal(canonicalJson(message), `{"content":"a😀b","role":"user"}`);
  const lone = composedUserMessage(() => ['a\ud83d', 'b']);
  assert.equal(canonicalJson(lone), `{"content":${JSON.stringify('a\ud83db')},"role":"user"}`);
  assert.equal(sha256(canonicalJson(message)), sha256(canonicalJson({ role: 'user', content: 'a😀b' })));
});

test('a plain message copy of an ordinary message is a shallow copy', () => {
  const message: Message = { role: 'assistant', content: 'x', toolCalls: [{ id: '1', name: 'f', arguments: {}, rawArguments: '{}' }] };
  const copy = plainMessage(message);
  assert.notEqual(copy, message);
  assert.deepEqual(copy, message);
});

test('a plain copy whose content was replaced after it was made is keyed by the content it holds, not by its parts', () => {
  const copy = plainMessage(composed()) as { role: 'user'; content: string };
  const request = (messages: Message[]): GenerateRequest => ({ messages, settings });
  const before = callCacheKey('openai:m', request([copy]));
  assert.equal(before, callCacheKey('openai:m', request([composed()])));
  copy.content = 'replaced';
  assert.equal(callCacheKey('openai:m', request([copy])), callCacheKey('openai:m', request([{ role: 'user', content: 'replaced' }])));
});
