import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createSessionIds } from './session-ids.js';

test('a session id is the provider\'s random part and a hash of the sample id: stable per sample, distinct across samples and providers', () => {
  const sessions = createSessionIds(() => Buffer.from('abcdef', 'hex'));
  const alice = sessions('alice');
  assert.equal(alice, `abcdef-${createHash('sha256').update('alice').digest('hex').slice(0, 16)}`);
  assert.equal(sessions('alice'), alice, 'every turn of one sample');
  assert.notEqual(sessions('bob'), alice);
  assert.notEqual(createSessionIds()('alice'), createSessionIds()('alice'), 'another run starts another conversation');
  // Without a sample id every call is a conversation of its own.
  assert.deepEqual([sessions(undefined), sessions(undefined)], ['abcdef-call-1', 'abcdef-call-2']);
});
