import assert from 'node:assert/strict';
import { test } from 'node:test';
import { user } from '../../core/index.js';
import { approxInputTokens } from './token-estimate.js';

test('approxInputTokens: four characters a token over the messages and the tool definitions, rounded up', () => {
  assert.equal(approxInputTokens({ messages: [user('abcd'), user('abcde')] }), 3); // 9 characters
  // The tools' JSON is `[{"name":"f","description":"d","parameters":{}}]`: 48 characters, 57 in all.
  assert.equal(approxInputTokens({ messages: [user('abcd'), user('abcde')], tools: [{ name: 'f', description: 'd', parameters: {} }] }), 15);
  assert.equal(approxInputTokens({ messages: [], tools: [] }), 0);
});
