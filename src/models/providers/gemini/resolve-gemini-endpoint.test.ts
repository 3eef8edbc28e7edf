import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../../core/index.js';
import { resolveGeminiEndpoint } from './resolve-gemini-endpoint.js';

describe('resolveGeminiEndpoint', () => {
  it('defaults to Google’s v1beta, key from GEMINI_API_KEY then GOOGLE_API_KEY, required there', () => {
    const endpoint = resolveGeminiEndpoint({ model: 'gemini-2.5-flash' }, { GOOGLE_API_KEY: 'g-key-0123456789' });
    assert.deepEqual(endpoint, {
      origin: 'https://generativelanguage.googleapis.com',
      path: '/v1beta/models/gemini-2.5-flash:generateContent',
      url: 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent',
      apiKey: 'g-key-0123456789',
      secrets: ['g-key-0123456789'],
    });
    assert.equal(resolveGeminiEndpoint({ model: 'm' }, { GEMINI_API_KEY: 'first', GOOGLE_API_KEY: 'second' }).apiKey, 'first');
    assert.throws(() => resolveGeminiEndpoint({ model: 'm' }, {}), (error: unknown) => error instanceof InputError && /GEMINI_API_KEY/.test(error.message));
  });

  it('takes GEMINI_BASE_URL, keeps full model names, and needs no key off Google', () => {
    const env = { GEMINI_BASE_URL: 'http://127.0.0.1:9/v1beta/' };
    assert.equal(resolveGeminiEndpoint({ model: 'tunedModels/my-model' }, env).path, '/v1beta/tunedModels/my-model:generateContent');
    assert.equal(resolveGeminiEndpoint({ model: 'models/gemini-2.0-flash' }, env).path, '/v1beta/models/gemini-2.0-flash:generateContent');
    assert.equal(resolveGeminiEndpoint({ model: 'gemini x' }, env).path, '/v1beta/models/gemini%20x:generateContent');
    assert.equal(resolveGeminiEndpoint({ model: 'm', baseURL: 'http://localhost:2/v1' }, env).url, 'http://localhost:2/v1/models/m:generateContent');
    assert.throws(() => resolveGeminiEndpoint({ model: 'm', baseURL: 'file:///x' }, {}), InputError);
  });
});
