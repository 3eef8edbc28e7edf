import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { anthropicErrorFromStatus } from './anthropic-errors.js';

const URL = 'https://api.anthropic.com/v1/messages';
const body = (type: string, message: string, extra: Record<string, unknown> = {}): string => JSON.stringify({ type: 'error', error: { type, message, ...extra }, request_id: 'req_011' });

describe('anthropicErrorFromStatus', () => {
  it('retries a 429 rate_limit_error after the retry-after seconds', () => {
    const error = anthropicErrorFromStatus(429, { 'retry-after': '12' }, body('rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit'), URL);
    assert.equal(error.kind, 'rate-limit');
    assert.equal(error.retryable, true);
    assert.equal(error.extra.retryAfterMs, 12_000);
    assert.equal(error.message, 'HTTP 429 from POST https://api.anthropic.com/v1/messages: rate_limit_error: Number of request tokens has exceeded your per-minute rate limit');
  });

  it('retries a 529 overloaded_error as a server error, with retry-after when given', () => {
    const error = anthropicErrorFromStatus(529, {}, body('overloaded_error', 'Overloaded'), URL);
    assert.equal(error.kind, 'server');
    assert.equal(error.extra.retryAfterMs, undefined);
    assert.equal(anthropicErrorFromStatus(529, { 'retry-after-ms': '250' }, body('overloaded_error', 'Overloaded'), URL).extra.retryAfterMs, 250);
  });

  it('does not retry the monthly spend cap, though it comes as a 429', () => {
    const error = anthropicErrorFromStatus(429, {}, body('rate_limit_error', 'spend limit reached', { details: { error_code: 'enforced_spend_limit_reached' } }), URL);
    assert.equal(error.kind, 'bad-request');
    assert.equal(error.retryable, false);
  });

  it('classifies auth, permission, bad requests and non-JSON bodies', () => {
    assert.equal(anthropicErrorFromStatus(401, {}, body('authentication_error', 'invalid x-api-key'), URL).kind, 'auth');
    assert.equal(anthropicErrorFromStatus(403, {}, body('permission_error', 'no'), URL).kind, 'auth');
    assert.equal(anthropicErrorFromStatus(400, {}, body('invalid_request_error', 'max_tokens: Field required'), URL).kind, 'bad-request');
    assert.equal(anthropicErrorFromStatus(413, {}, body('request_too_large', 'too big'), URL).kind, 'bad-request');
    assert.equal(anthropicErrorFromStatus(404, {}, body('not_found_error', 'model: claude-nine'), URL).kind, 'not-found');
    const html = anthropicErrorFromStatus(502, {}, '<html>Bad gateway</html>', URL);
    assert.equal(html.kind, 'server');
    assert.match(html.message, /<html>Bad gateway<\/html>$/);
  });
});
