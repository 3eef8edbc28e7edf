import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeOpenAIServer, type FakeServer } from '../../../demo/openai-wire.js';
import { createDemoProvider } from './demo-provider.js';

describe('demo: provider', () => {
  let server: FakeServer;
  const saved = { key: process.env['OPENAI_API_KEY'], url: process.env['OPENAI_BASE_URL'] };
  before(async () => {
    server = await startFakeOpenAIServer({ respond: (body) => ({ text: `scripted ${String(body.model)}` }) });
    process.env['OPENAI_API_KEY'] = 'sk-canary-never-sent-1234567890';
    process.env['OPENAI_BASE_URL'] = 'http://127.0.0.1:9/v1';
  });
  after(async () => {
    for (const [name, value] of [['OPENAI_API_KEY', saved.key], ['OPENAI_BASE_URL', saved.url]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await server.close();
  });

  it('calls the demo server by its name, under a demo: id, billing nothing and sending no key of the environment', async () => {
    const provider = createDemoProvider({ model: 'judge', baseURL: server.url });
    try {
      const result = await provider.generate({ messages: [{ role: 'user', content: 'hello' }], settings: {} }, { signal: new AbortController().signal, sampleId: 's' });
      assert.equal(result.text, 'scripted judge');
      assert.deepEqual([provider.id, provider.billed, provider.cacheable], ['demo:judge', false, true]);
      assert.deepEqual(server.requests.map((r) => [r.path, r.hadCredential]), [['/v1/chat/completions', false]]);
    } finally {
      await provider.close?.();
    }
  });
});
