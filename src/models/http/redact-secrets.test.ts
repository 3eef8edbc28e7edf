import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRedactor, REDACTED, redactJsonValue, RunSecrets } from './redact-secrets.js';
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

  it('redacts a percent-encoded secret whatever the case of its hex digits (%2f is %2F), and JSON-escaped', () => {
    const secrets = new RunSecrets();
    secrets.add(['sk-key/with+slash-0003']);
    for (const echoed of ['sk-key%2fwith%2bslash-0003', 'sk-key%2Fwith%2bslash-0003', 'sk-key%2fwith%2Bslash-0003']) {
      assert.equal(secrets.redact(`GET http://gw/${echoed}/v1`), `GET http://gw/${REDACTED}/v1`, echoed);
      assert.equal(secrets.redact(JSON.stringify({ url: `http://gw/${echoed}` })), JSON.stringify({ url: `http://gw/${REDACTED}` }), echoed);
    }
    // Only hex digits fold: another letter of the key keeps its case.
    assert.equal(secrets.redact('SK-KEY%2fwith%2bslash-0003'), 'SK-KEY%2fwith%2bslash-0003');
    // A secret holding a percent-escape itself matches its other case too.
    assert.equal(createRedactor(['token%3Aabcdef12'])('x token%3aabcdef12 y'), `x ${REDACTED} y`);
  });
});

describe('redactJsonValue', () => {
  const redact = createRedactor([CANARY_KEY]);
  /** What the value's JSON text, redacted and parsed again, holds: the reference the in-place walk must equal. */
  const throughJson = (value: unknown): unknown => JSON.parse(redact(JSON.stringify(value))) as unknown;

  it('finds the key in every decoded string and key, also written with JSON escapes inside a string (JSON in JSON), as the JSON text pass did', () => {
    for (const [name, form] of Object.entries(escapeForms(CANARY_KEY))) {
      // A decoded output: the text holds the key as written, a tool call's arguments hold it escaped once more.
      const output = {
        text: `echo ${CANARY_KEY} and ${form}`,
        toolCalls: [{ id: 'c1', name: 'lookup', arguments: jsonWithForm({ key: CANARY_KEY }, CANARY_KEY, form) }],
        raw: { choices: [{ message: { content: `x${form}y` } }], [CANARY_KEY]: [1, `${form}`, null, true] },
        usage: { inputTokens: 3 },
      };
      const clean = redactJsonValue(output, redact);
      assert.deepEqual(clean, throughJson(output), name);
      assert.equal(revealsSecret(JSON.stringify(clean), CANARY_KEY), false, name);
      assert.equal(clean.text, `echo ${REDACTED} and ${REDACTED}`, name);
    }
  });

  it('returns a clean value as the same object, and copies only the path to a replaced string', () => {
    const clean = { text: 'nothing', toolCalls: [{ arguments: '{"q":1}' }], raw: { deep: { list: ['a', 'b'] } }, n: 1, none: null };
    assert.equal(redactJsonValue(clean, redact), clean);
    const dirty = { kept: { list: ['a'] }, hit: ['ok', `k ${CANARY_KEY}`], after: { x: 1 } };
    const out = redactJsonValue(dirty, redact);
    assert.deepEqual(out, { kept: { list: ['a'] }, hit: ['ok', `k ${REDACTED}`], after: { x: 1 } });
    assert.notEqual(out, dirty);
    assert.equal(out.kept, dirty.kept);
    assert.equal(out.after, dirty.after);
    assert.deepEqual(Object.keys(out), ['kept', 'hit', 'after']);
    assert.equal(dirty.hit[1], `k ${CANARY_KEY}`, 'the input is not changed');
  });

  it('keeps a key named __proto__ an own property, as JSON.parse does', () => {
    const parsed = JSON.parse(`{"__proto__": "${CANARY_KEY}", "a": 1}`) as Record<string, unknown>;
    const out = redactJsonValue(parsed, redact);
    assert.deepEqual(Object.keys(out), ['__proto__', 'a']);
    assert.equal(Object.getOwnPropertyDescriptor(out, '__proto__')?.value, REDACTED);
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
  });

  it('redacts a value that is not plain JSON data (a Date, an object with toJSON, deep nesting) through its JSON text', () => {
    const withToJson = { toJSON: () => ({ secret: CANARY_KEY }) };
    assert.deepEqual(redactJsonValue({ inner: withToJson }, redact), { inner: { secret: REDACTED } });
    const date = new Date(0);
    assert.equal(redactJsonValue({ date }, redact).date, date);
    let deep: unknown = CANARY_KEY;
    for (let i = 0; i < 200; i++) deep = [deep];
    assert.equal(revealsSecret(JSON.stringify(redactJsonValue(deep, redact)), CANARY_KEY), false);
    assert.equal(JSON.stringify(redactJsonValue(deep, redact)), JSON.stringify(throughJson(deep)));
  });

  it('leaves undefined and numbers as they are', () => {
    assert.equal(redactJsonValue(undefined, redact), undefined);
    assert.equal(redactJsonValue(42, redact), 42);
  });
});
