import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { geminiErrorFromStatus, parseDurationMs } from './gemini-errors.js';

const URL = 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent';

/** The documented 429: RESOURCE_EXHAUSTED with QuotaFailure, Help and RetryInfo details. */
const quota = JSON.stringify({
  error: {
    code: 429,
    message: 'You exceeded your current quota, please check your plan and billing details.',
    status: 'RESOURCE_EXHAUSTED',
    details: [
      { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests', quotaValue: '250' }] },
      { '@type': 'type.googleapis.com/google.rpc.Help', links: [{ description: 'Learn more', url: 'https://ai.google.dev/gemini-api/docs/rate-limits' }] },
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '22s' },
    ],
  },
});

describe('geminiErrorFromStatus', () => {
  it('retries a 429 RESOURCE_EXHAUSTED after the RetryInfo delay', () => {
    const error = geminiErrorFromStatus(429, {}, quota, URL);
    assert.equal(error.kind, 'rate-limit');
    assert.equal(error.extra.retryAfterMs, 22_000);
    assert.match(error.message, /^HTTP 429 from POST .*: RESOURCE_EXHAUSTED: You exceeded your current quota/);
  });

  it('falls back to a Retry-After header, and retries 500/503/504 as server errors', () => {
    const unavailable = JSON.stringify({ error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } });
    const error = geminiErrorFromStatus(503, { 'retry-after': '3' }, unavailable, URL);
    assert.equal(error.kind, 'server');
    assert.equal(error.extra.retryAfterMs, 3000);
    assert.equal(geminiErrorFromStatus(504, {}, JSON.stringify({ error: { code: 504, status: 'DEADLINE_EXCEEDED', message: 'x' } }), URL).kind, 'server');
  });

  it('classifies an invalid key (400 with ErrorInfo API_KEY_INVALID) as auth, other 400s as bad-request', () => {
    const badKey = JSON.stringify({ error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT', details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }] } });
    assert.equal(geminiErrorFromStatus(400, {}, badKey, URL).kind, 'auth');
    const badSchema = JSON.stringify({ error: { code: 400, message: 'Invalid JSON payload received. Unknown name "additionalProperties"', status: 'INVALID_ARGUMENT' } });
    assert.equal(geminiErrorFromStatus(400, {}, badSchema, URL).kind, 'bad-request');
    assert.equal(geminiErrorFromStatus(403, {}, JSON.stringify({ error: { code: 403, status: 'PERMISSION_DENIED', message: 'no' } }), URL).kind, 'auth');
    const noModel = JSON.stringify({ error: { code: 404, message: 'models/gemini-9 is not found for API version v1beta, or is not supported for generateContent.', status: 'NOT_FOUND' } });
    assert.equal(geminiErrorFromStatus(404, {}, noModel, URL).kind, 'not-found');
    assert.equal(geminiErrorFromStatus(500, {}, 'plain text', URL).message, `HTTP 500 from POST ${URL}: plain text`);
  });
});

describe('parseDurationMs', () => {
  it('reads protobuf Duration strings', () => {
    assert.deepEqual(['22s', '1.5s', '0.030s', '22', 's', 22, undefined].map(parseDurationMs), [22_000, 1500, 30, undefined, undefined, undefined, undefined]);
  });
});
