import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InputError, PROVIDERS } from '../core/index.js';
import { createProvider } from './registry.js';

describe('createProvider', () => {
  it('builds the native providers from their ids with the configured base URLs and keys', async () => {
    const config = { seed: 1, anthropicBaseURL: 'http://127.0.0.1:1', anthropicApiKey: 'k-anthropic-123', geminiBaseURL: 'http://127.0.0.1:1/v1beta', geminiApiKey: 'k-gemini-123', ollamaBaseURL: 'http://127.0.0.1:1/v1' };
    for (const id of ['anthropic:claude-x', 'gemini:gemini-x', 'ollama:llama3.2']) {
      const provider = await createProvider(id, config);
      assert.equal(provider.id, id);
      assert.equal(provider.cacheable, true);
      await provider.close?.();
    }
  });

  it('knows every provider name and refuses unknown ones', async () => {
    assert.deepEqual([...PROVIDERS], ['openai', 'anthropic', 'gemini', 'ollama', 'local', 'replay', 'baseline', 'scripted']);
    await assert.rejects(createProvider('claude:x', { seed: 1 }), InputError);
  });
});
