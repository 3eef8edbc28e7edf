import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../../core/index.js';
import { resolveOpenAIEndpoint } from './resolve-endpoint.js';

describe('resolveOpenAIEndpoint', () => {
  it('defaults to api.openai.com/v1 with the key from the environment', () => {
    const endpoint = resolveOpenAIEndpoint({}, { OPENAI_API_KEY: 'sk-env-key-123456' });
    assert.deepEqual(endpoint, {
      origin: 'https://api.openai.com',
      path: '/v1/chat/completions',
      url: 'https://api.openai.com/v1/chat/completions',
      apiKey: 'sk-env-key-123456',
      basicAuth: undefined,
      secrets: ['sk-env-key-123456'],
    });
  });

  it('hides the base URL\'s credentials from messages, counts them as secrets and sends the user part as Basic auth', () => {
    const endpoint = resolveOpenAIEndpoint({ baseURL: 'http://u:p%40ss@127.0.0.1:9/v1?api_key=q-secret&mode=fast' }, {});
    assert.equal(endpoint.url, 'http://127.0.0.1:9/v1/chat/completions?api_key=***&mode=fast');
    assert.equal(endpoint.path, '/v1/chat/completions?api_key=q-secret&mode=fast');
    assert.equal(endpoint.basicAuth, Buffer.from('u:p@ss').toString('base64'));
    for (const secret of ['p%40ss', 'p@ss', 'q-secret', endpoint.basicAuth]) assert.ok(endpoint.secrets.includes(secret as string), secret);
  });

  it('takes the credentials a run hid from OPENAI_BASE_URL when it is the same URL, and refuses to call with ***', () => {
    const full = 'http://u:pass@127.0.0.1:9/v1?key=k-secret';
    const recorded = 'http://u:***@127.0.0.1:9/v1?key=***';
    assert.equal(resolveOpenAIEndpoint({ baseURL: recorded }, { OPENAI_BASE_URL: full }).path, '/v1/chat/completions?key=k-secret');
    assert.throws(() => resolveOpenAIEndpoint({ baseURL: recorded }, {}), (error: unknown) => error instanceof InputError && /credentials hidden.*--base-url or OPENAI_BASE_URL/.test(error.message));
    assert.throws(() => resolveOpenAIEndpoint({ baseURL: recorded }, { OPENAI_BASE_URL: 'http://u:pass@other:9/v1?key=k-secret' }), InputError);
  });

  it('takes a key a run hid from the path or from a query value of any name back from OPENAI_BASE_URL', () => {
    // As a run records `http://gw:9/sk-path-key/v1?q=sk-query-key` when both are its keys.
    const recorded = 'http://gw:9/***/v1?q=***&mode=fast';
    const full = 'http://gw:9/sk-path-key/v1?q=sk-query-key&mode=fast';
    assert.equal(resolveOpenAIEndpoint({ baseURL: recorded }, { OPENAI_BASE_URL: full }).path, '/sk-path-key/v1/chat/completions?q=sk-query-key&mode=fast');
    assert.throws(() => resolveOpenAIEndpoint({ baseURL: recorded }, {}), (error: unknown) => error instanceof InputError && /credentials hidden/.test(error.message));
    // Another URL around the hidden spots is not the recorded one; a spot is one segment or one value.
    for (const other of ['http://gw:9/sk-path-key/v2?q=sk-query-key&mode=fast', 'http://gw:9/a/b/v1?q=sk-query-key&mode=fast', 'http://gw:9/sk-path-key/v1?q=x&y=z&mode=fast', 'http://gw:9/sk-path-key/v1?q=sk-query-key']) {
      assert.throws(() => resolveOpenAIEndpoint({ baseURL: recorded }, { OPENAI_BASE_URL: other }), InputError, other);
    }
  });

  it('lets options win over the environment', () => {
    const endpoint = resolveOpenAIEndpoint({ baseURL: 'http://localhost:8000/v1', apiKey: 'opt-key' }, { OPENAI_BASE_URL: 'http://other:1/v1', OPENAI_API_KEY: 'env-key' });
    assert.equal(endpoint.origin, 'http://localhost:8000');
    assert.equal(endpoint.apiKey, 'opt-key');
  });

  it('takes OPENAI_BASE_URL and needs no key for a local server', () => {
    const endpoint = resolveOpenAIEndpoint({}, { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1/' });
    assert.equal(endpoint.path, '/v1/chat/completions');
    assert.equal(endpoint.apiKey, undefined);
  });

  it('keeps a longer path prefix and a query, and works without a prefix', () => {
    assert.equal(resolveOpenAIEndpoint({ baseURL: 'https://proxy.example/openai/deployments/x?api-version=2024-06-01' }, {}).path, '/openai/deployments/x/chat/completions?api-version=2024-06-01');
    assert.equal(resolveOpenAIEndpoint({ baseURL: 'http://127.0.0.1:9000' }, {}).path, '/chat/completions');
    assert.equal(resolveOpenAIEndpoint({ baseURL: 'http://127.0.0.1:9000//' }, {}).path, '/chat/completions');
  });

  it('treats an empty key or URL as unset', () => {
    assert.equal(resolveOpenAIEndpoint({ baseURL: 'http://h:1/v1', apiKey: '' }, { OPENAI_API_KEY: 'env-key' }).apiKey, 'env-key');
    assert.equal(resolveOpenAIEndpoint({ baseURL: '  ' }, { OPENAI_BASE_URL: 'http://h:2/v1' }).origin, 'http://h:2');
  });

  it('requires a key for api.openai.com, naming the variable in one line', () => {
    assert.throws(
      () => resolveOpenAIEndpoint({}, {}),
      (error: unknown) => error instanceof InputError && error.message.includes('OPENAI_API_KEY') && !error.message.includes('\n'),
    );
  });

  it('rejects a base URL that is not an http(s) URL', () => {
    assert.throws(() => resolveOpenAIEndpoint({ baseURL: 'localhost:8000' }, {}), InputError);
    assert.throws(() => resolveOpenAIEndpoint({ baseURL: 'not a url' }, {}), InputError);
    assert.throws(() => resolveOpenAIEndpoint({ baseURL: 'ftp://h/v1' }, {}), InputError);
  });
});
