import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ModelCallError } from '../../../core/index.js';
import { errorFromStatus, errorFromTransport, oneLine, serverErrorText } from './openai-errors.js';

const URL = 'http://h/v1/chat/completions';
const live = new AbortController().signal;
const same = (text: string): string => text;
const coded = (message: string, code: string): Error => Object.assign(new Error(message), { code });

describe('errorFromStatus', () => {
  it('classifies statuses the retry policy cares about', () => {
    const kinds = [400, 401, 403, 404, 408, 422, 429, 500, 502, 503, 302].map((status) => errorFromStatus(status, {}, '', URL).kind);
    assert.deepEqual(kinds, ['bad-request', 'auth', 'auth', 'not-found', 'timeout', 'bad-request', 'rate-limit', 'server', 'server', 'server', 'bad-response']);
  });

  it('reads model_not_found as not-found whatever the status', () => {
    const body = JSON.stringify({ error: { message: 'The model `gpt-9` does not exist or you do not have access to it.', type: 'invalid_request_error', code: 'model_not_found' } });
    assert.equal(errorFromStatus(404, {}, body, URL).kind, 'not-found');
    assert.equal(errorFromStatus(400, {}, body, URL).kind, 'not-found');
    assert.equal(errorFromStatus(400, {}, JSON.stringify({ error: { message: 'bad', code: 'invalid_value' } }), URL).kind, 'bad-request');
  });

  it('carries retryAfterMs only for 429 and 5xx', () => {
    assert.equal(errorFromStatus(429, { 'retry-after': '2' }, '', URL).extra.retryAfterMs, 2000);
    assert.equal(errorFromStatus(500, { 'retry-after': '2' }, '', URL).extra.retryAfterMs, 2000);
    assert.equal(errorFromStatus(400, { 'retry-after': '2' }, '', URL).extra.retryAfterMs, undefined);
  });
});

describe('serverErrorText', () => {
  it('finds the message in the usual envelopes', () => {
    assert.equal(serverErrorText('{"error":{"message":"m1","type":"t"}}'), 'm1');
    assert.equal(serverErrorText('{"error":"m2"}'), 'm2');
    assert.equal(serverErrorText('{"message":"m3"}'), 'm3');
    assert.equal(serverErrorText('{"detail":"x"}'), '{"detail":"x"}');
    assert.equal(serverErrorText('plain'), 'plain');
  });

  it('oneLine flattens whitespace and cuts to the limit with an ellipsis', () => {
    assert.equal(oneLine(' a\n\tb  c '), 'a b c');
    assert.equal(oneLine('abcdef', 4), 'abc…');
  });
});

describe('errorFromTransport', () => {
  it('maps connection errors to network and undici timeouts to timeout', () => {
    const refused = errorFromTransport(coded('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED'), live, URL, same);
    assert.ok(refused instanceof ModelCallError && refused.kind === 'network');
    const socket = errorFromTransport(coded('other side closed', 'UND_ERR_SOCKET'), live, URL, same);
    assert.ok(socket instanceof ModelCallError && socket.kind === 'network');
    const headers = errorFromTransport(coded('Headers Timeout Error', 'UND_ERR_HEADERS_TIMEOUT'), live, URL, same);
    assert.ok(headers instanceof ModelCallError && headers.kind === 'timeout');
  });

  it('looks inside AggregateError and cause for the code', () => {
    const aggregate = Object.assign(new AggregateError([coded('a', 'ECONNREFUSED'), coded('b', 'ECONNREFUSED')], ''), {});
    const mapped = errorFromTransport(aggregate, live, URL, same);
    assert.ok(mapped instanceof ModelCallError && mapped.kind === 'network' && mapped.message.includes('ECONNREFUSED'));
    const wrapped = errorFromTransport(new Error('fetch failed', { cause: coded('reset', 'ECONNRESET') }), live, URL, same);
    assert.ok(wrapped instanceof ModelCallError && wrapped.kind === 'network');
  });

  it('returns programming errors unchanged', () => {
    const bug = new TypeError('x is not a function');
    assert.equal(errorFromTransport(bug, live, URL, same), bug);
    const invalid = coded('invalid', 'UND_ERR_INVALID_ARG');
    assert.equal(errorFromTransport(invalid, live, URL, same), invalid);
  });

  it('lets an aborted signal win, keeping a ModelCallError reason', () => {
    const controller = new AbortController();
    const reason = new ModelCallError('timeout', 'too slow');
    controller.abort(reason);
    assert.equal(errorFromTransport(coded('aborted', 'UND_ERR_ABORTED'), controller.signal, URL, same), reason);
    const plain = new AbortController();
    plain.abort(new Error('user stopped'));
    const mapped = errorFromTransport(new Error('x'), plain.signal, URL, same);
    assert.ok(mapped instanceof ModelCallError && mapped.kind === 'aborted' && mapped.message.includes('user stopped'));
  });

  it('redacts the message', () => {
    const mapped = errorFromTransport(coded('failed for secret-value-1', 'ECONNRESET'), live, URL, (t) => t.replaceAll('secret-value-1', '[REDACTED]'));
    assert.ok(mapped instanceof ModelCallError && mapped.message.includes('[REDACTED]') && !mapped.message.includes('secret-value-1'));
  });
});
