import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ModelCallError, user } from '../../../core/index.js';
import { startFakeGeminiServer, type FakeGeminiServer } from '../../../testing/fake-gemini-server.js';
import { createGeminiProvider } from './gemini-provider.js';

const KEY = 'AIza-test-0123456789abcdef';
const live = (): { signal: AbortSignal } => ({ signal: new AbortController().signal });
const isCallError = (kind: string) => (error: unknown) => error instanceof ModelCallError && error.kind === kind;

describe('gemini provider against the loopback generateContent server', () => {
  let server: FakeGeminiServer;
  before(async () => {
    server = await startFakeGeminiServer({
      respond: (_body, ctx) => {
        if (ctx.key === 'echo the key') return { text: `key=${String(ctx.headers['x-goog-api-key'])}` };
        if (ctx.key === 'blocked') return { blockReason: 'SAFETY' };
        return { text: `echo: ${ctx.key}` };
      },
      faults: (ctx) => {
        if (ctx.key === 'quota') return { type: 'status', status: 429, retryAfterMs: 40 };
        if (ctx.key === 'unavailable') return { type: 'status', status: 503 };
        return undefined;
      },
    });
  });
  after(() => server.close());

  it('sends x-goog-api-key (never in the URL) and reads the answer', async () => {
    const provider = createGeminiProvider({ model: 'gemini-test', baseURL: server.url, apiKey: KEY });
    try {
      assert.equal(provider.id, 'gemini:gemini-test');
      const result = await provider.generate({ messages: [user('hello')], settings: { seed: 3 } }, live());
      assert.equal(result.text, 'echo: hello');
      assert.deepEqual(result.finishReason, { unified: 'stop', raw: 'STOP' });
      assert.deepEqual(result.usage, { inputTokens: 2, outputTokens: 3 });
      assert.deepEqual(result.warnings, []);
      const recorded = server.requests.at(-1);
      assert.equal(recorded?.path, '/v1beta/models/gemini-test:generateContent');
      assert.equal(recorded?.credentialLength, KEY.length);
      assert.deepEqual(recorded?.body, { contents: [{ role: 'user', parts: [{ text: 'hello' }] }], generationConfig: { seed: 3 } });
    } finally {
      await provider.close?.();
    }
  });

  it('scrubs the key from an echo, and returns a blocked prompt as an output', async () => {
    const provider = createGeminiProvider({ model: 'gemini-test', baseURL: server.url, apiKey: KEY });
    try {
      assert.equal((await provider.generate({ messages: [user('echo the key')], settings: {} }, live())).text, 'key=[REDACTED]');
      const blocked = await provider.generate({ messages: [user('blocked')], settings: {} }, live());
      assert.deepEqual(blocked.finishReason, { unified: 'content-filter', raw: 'SAFETY' });
      assert.equal(blocked.text, '');
    } finally {
      await provider.close?.();
    }
  });

  it('maps 429 with RetryInfo and 503 to retryable errors', async () => {
    const provider = createGeminiProvider({ model: 'gemini-test', baseURL: server.url, apiKey: KEY });
    try {
      await assert.rejects(provider.generate({ messages: [user('quota')], settings: {} }, live()), (error: unknown) => isCallError('rate-limit')(error) && (error as ModelCallError).extra.retryAfterMs === 40);
      await assert.rejects(provider.generate({ messages: [user('unavailable')], settings: {} }, live()), isCallError('server'));
    } finally {
      await provider.close?.();
    }
  });
});
