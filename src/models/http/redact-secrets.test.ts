import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRedactor, REDACTED, RunSecrets } from './redact-secrets.js';
import { CANARY_KEY, escapeForms, jsonWithForm, revealsSecret } from '../../testing/canary.js';

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

describe('createRedactor on JSON escapes', () => {
  it('catches the secret however JSON text escapes it, at any depth, and the text still parses', () => {
    const redact = createRedactor([CANARY_KEY]);
    for (const [name, form] of Object.entries(escapeForms(CANARY_KEY))) {
      const body = jsonWithForm({ error: { message: `bad key ${CANARY_KEY}!` }, args: JSON.stringify({ key: CANARY_KEY }) }, CANARY_KEY, form);
      assert.ok(!body.includes(CANARY_KEY) || name === 'plain', name);
      const clean = redact(body);
      assert.equal(revealsSecret(clean, CANARY_KEY), false, `${name}: ${clean}`);
      const parsed = JSON.parse(clean) as { error: { message: string }; args: string };
      assert.equal(parsed.error.message, 'bad key [REDACTED]!', name);
      assert.deepEqual(JSON.parse(parsed.args), { key: REDACTED }, name);
    }
  });
});

describe('RunSecrets', () => {
  it('redacts every decoded string of a value of every secret added, and leaves a clean value as it is', () => {
    const secrets = new RunSecrets();
    secrets.add(['first-key-0001', undefined]);
    secrets.add(['second-key-0002']);
    const dirty = { text: 'a first-key-0001', toolCalls: [{ arguments: { q: 'second-key-0002' } }], raw: { 'second-key-0002': 1 } };
    assert.deepEqual(secrets.redactValue(dirty), { text: `a ${REDACTED}`, toolCalls: [{ arguments: { q: REDACTED } }], raw: { [REDACTED]: 1 } });
    const clean = { text: 'nothing' };
    assert.equal(secrets.redactValue(clean), clean);
    assert.equal(secrets.redact('x second-key-0002'), `x ${REDACTED}`);
    assert.ok(secrets.has('first-key-0001'));
  });

  it('redacts a secret percent-encoded too, as an echoed address writes a key in its path or query', () => {
    const secrets = new RunSecrets();
    secrets.add(['sk-key/with+slash-0003']);
    assert.equal(secrets.redact('404 for POST http://gw/sk-key%2Fwith%2Bslash-0003/v1/chat/completions'), `404 for POST http://gw/${REDACTED}/v1/chat/completions`);
    assert.equal(secrets.redact('sk-key/with+slash-0003'), REDACTED);
  });
});
