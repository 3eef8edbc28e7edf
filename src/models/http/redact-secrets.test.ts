import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRedactor } from './redact-secrets.js';

describe('createRedactor', () => {
  it('replaces every occurrence of each secret', () => {
    const redact = createRedactor(['sk-abcdef123456', undefined, 'tok-zzzzzzzz']);
    assert.equal(redact('key sk-abcdef123456 and sk-abcdef123456, tok-zzzzzzzz'), 'key [REDACTED] and [REDACTED], [REDACTED]');
    assert.equal(redact('nothing here'), 'nothing here');
  });

  it('keeps JSON valid and catches the JSON-escaped form of a secret', () => {
    const secret = 'ab"cd\\efgh';
    const redact = createRedactor([secret]);
    const json = JSON.stringify({ echo: `got ${secret}` });
    assert.deepEqual(JSON.parse(redact(json)), { echo: 'got [REDACTED]' });
  });

  it('replaces a longer secret whole when it contains a shorter one', () => {
    const redact = createRedactor(['12345678', 'xx12345678yy']);
    assert.equal(redact('a xx12345678yy b 12345678'), 'a [REDACTED] b [REDACTED]');
  });

  it('ignores dummy keys shorter than 8 characters', () => {
    const redact = createRedactor(['EMPTY', '']);
    assert.equal(redact('EMPTY answer'), 'EMPTY answer');
  });
});
