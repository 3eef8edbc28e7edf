import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InputError, user } from '../../../core/index.js';
import { startFakeOpenAIServer, type FakeServer } from '../../../testing/fake-openai-server.js';
import { createOllamaProvider, DEFAULT_OLLAMA_BASE_URL, resolveOllamaBaseURL } from './ollama-provider.js';

describe('resolveOllamaBaseURL', () => {
  it('reads OLLAMA_HOST as Ollama does: host, host:port or URL, adding /v1', () => {
    assert.equal(resolveOllamaBaseURL(undefined, {}), DEFAULT_OLLAMA_BASE_URL);
    assert.equal(DEFAULT_OLLAMA_BASE_URL, 'http://127.0.0.1:11434/v1');
    assert.equal(resolveOllamaBaseURL(undefined, { OLLAMA_HOST: '0.0.0.0' }), 'http://0.0.0.0:11434/v1');
    assert.equal(resolveOllamaBaseURL(undefined, { OLLAMA_HOST: 'gpu-box:8080' }), 'http://gpu-box:8080/v1');
    assert.equal(resolveOllamaBaseURL(undefined, { OLLAMA_HOST: 'https://ollama.example.com' }), 'https://ollama.example.com/v1');
    assert.equal(resolveOllamaBaseURL(undefined, { OLLAMA_HOST: 'http://h:1/custom/v1/' }), 'http://h:1/custom/v1');
    assert.equal(resolveOllamaBaseURL('http://x:2', { OLLAMA_HOST: 'ignored' }), 'http://x:2/v1');
    assert.throws(() => resolveOllamaBaseURL(undefined, { OLLAMA_HOST: 'http://[bad' }), InputError);
  });
});

describe('ollama provider', () => {
  let server: FakeServer;
  before(async () => {
    server = await startFakeOpenAIServer();
  });
  after(() => server.close());

  it('is the OpenAI-compatible provider under its own id, and never sends an OpenAI key', async () => {
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-openai-must-not-leak-0123';
    try {
      const provider = createOllamaProvider({ model: 'llama3.2' }, { OLLAMA_HOST: server.url.replace(/\/v1$/, '') });
      assert.equal(provider.id, 'ollama:llama3.2');
      const result = await provider.generate({ messages: [user('hi')], settings: {} }, { signal: new AbortController().signal });
      await provider.close?.();
      assert.equal(result.text, 'echo: hi');
      const recorded = server.requests.at(-1);
      assert.equal(recorded?.path, '/v1/chat/completions');
      assert.equal(recorded?.hadCredential, false);
      assert.equal((recorded?.body as { model?: string }).model, 'llama3.2');
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });
});
