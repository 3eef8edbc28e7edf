import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InputError, parseModelId, PROVIDERS } from '../core/index.js';
import { createProvider, createTargetProvider, UNBILLED_PROVIDERS } from './registry.js';
import { createDemoProvider } from './providers/demo/demo-provider.js';

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

  it('names as unbilled exactly the providers that bill nothing', async () => {
    const config = { seed: 1, openaiBaseURL: 'http://127.0.0.1:1/v1', openaiApiKey: 'k-openai-123', anthropicBaseURL: 'http://127.0.0.1:1', anthropicApiKey: 'k', geminiBaseURL: 'http://127.0.0.1:1/v1beta', geminiApiKey: 'k', ollamaBaseURL: 'http://127.0.0.1:1/v1' };
    // Replay needs a file and local a model: their flags are checked where they are built (replay-provider.ts, local-provider.ts).
    for (const id of ['openai:m', 'anthropic:m', 'gemini:m', 'ollama:m', 'baseline:lexical', 'baseline:random', 'given:answers']) {
      const provider = await createProvider(id, config);
      assert.equal(provider.billed === false, UNBILLED_PROVIDERS.has(parseModelId(id).provider), id);
      await provider.close?.();
    }
    assert.deepEqual([...UNBILLED_PROVIDERS].sort(), ['baseline', 'demo', 'given', 'local', 'replay']);
    // demo: is built by `assay demo` itself (pointed at its loopback server), never from the id.
    assert.equal(createDemoProvider({ model: 'm', baseURL: 'http://127.0.0.1:1/v1' }).billed, false);
  });

  it('knows every provider name and refuses unknown ones', async () => {
    assert.deepEqual([...PROVIDERS], ['openai', 'anthropic', 'gemini', 'ollama', 'local', 'replay', 'baseline', 'given', 'scripted', 'demo']);
    await assert.rejects(createProvider('demo:judge', { seed: 1 }), /only inside "assay demo"/);
    await assert.rejects(createProvider('claude:x', { seed: 1 }), InputError);
    await assert.rejects(createProvider('given:other', { seed: 1 }), /given:answers/);
  });
});

describe('createTargetProvider', () => {
  it('builds each kind of application target under its declared name, billed (a price and usage give its cost)', async () => {
    const targets = [
      await createTargetProvider({ kind: 'http', name: 'bot', url: 'http://127.0.0.1:1/chat', body: '{"m": {{ prompt | tojson }}}', output: 'reply' }),
      await createTargetProvider({ kind: 'exec', name: 'script', argv: [process.execPath, '-e', ''] }),
    ];
    assert.deepEqual(targets.map((t) => [t.id, t.billed]), [['bot', undefined], ['script', undefined]]);
    await Promise.all(targets.map((t) => t.close?.()));
  });

  it('refuses a declaration that cannot work before anything is called', async () => {
    await assert.rejects(createTargetProvider({ kind: 'module', name: 'agent', path: '/nonexistent/agent.mjs' }), InputError);
    await assert.rejects(createTargetProvider({ kind: 'http', name: 'bot', url: 'http://127.0.0.1:1/chat', body: '{"m": "{{ prompt }}"}', output: 'reply' }), InputError);
  });
});
