import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../../core/index.js';
import { resolveAnthropicEndpoint } from './resolve-anthropic-endpoint.js';

describe('resolveAnthropicEndpoint', () => {
  it('defaults to api.anthropic.com/v1/messages and needs a key there', () => {
    const endpoint = resolveAnthropicEndpoint({}, { ANTHROPIC_API_KEY: 'sk-ant-0123456789' });
    assert.deepEqual(endpoint, { origin: 'https://api.anthropic.com', path: '/v1/messages', url: 'https://api.anthropic.com/v1/messages', apiKey: 'sk-ant-0123456789', secrets: ['sk-ant-0123456789'] });
    assert.throws(() => resolveAnthropicEndpoint({}, {}), (error: unknown) => error instanceof InputError && /ANTHROPIC_API_KEY/.test(error.message));
  });

  it('takes options over ANTHROPIC_BASE_URL, keeps a path prefix, and needs no key elsewhere', () => {
    const env = { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/proxy/', ANTHROPIC_API_KEY: ' ' };
    assert.deepEqual(resolveAnthropicEndpoint({}, env), { origin: 'http://127.0.0.1:9', path: '/proxy/v1/messages', url: 'http://127.0.0.1:9/proxy/v1/messages', apiKey: undefined, secrets: [] });
    assert.equal(resolveAnthropicEndpoint({ baseURL: 'http://localhost:1', apiKey: 'k' }, env).url, 'http://localhost:1/v1/messages');
    assert.throws(() => resolveAnthropicEndpoint({ baseURL: 'ftp://x' }, {}), InputError);
    assert.throws(() => resolveAnthropicEndpoint({ baseURL: 'not a url' }, {}), InputError);
  });
});
