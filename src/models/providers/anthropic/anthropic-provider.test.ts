import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ModelCallError, user } from '../../../core/index.js';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../../../testing/fake-anthropic-server.js';
import { ANTHROPIC_VERSION, createAnthropicProvider } from './anthropic-provider.js';

const KEY = 'sk-ant-test-0123456789abcdef';
const live = (): { signal: AbortSignal } => ({ signal: new AbortController().signal });
const isCallError = (kind: string) => (error: unknown) => error instanceof ModelCallError && error.kind === kind;

describe('anthropic provider against the loopback Messages server', () => {
  let server: FakeAnthropicServer;
  before(async () => {
    server = await startFakeAnthropicServer({
      respond: (_body, ctx) => (ctx.key === 'echo the key' ? { text: `your key is ${String(ctx.headers['x-api-key'])}` } : { text: `echo: ${ctx.key}` }),
      faults: (ctx) => {
        if (ctx.key === 'limited') return { type: 'status', status: 429, retryAfter: '2' };
        if (ctx.key === 'overloaded') return { type: 'status', status: 529 };
        if (ctx.key === 'broken') return { type: 'bad-json' };
        return undefined;
      },
    });
  });
  after(() => server.close());

  it('sends x-api-key and anthropic-version, and reads the answer', async () => {
    const provider = createAnthropicProvider({ model: 'claude-test', baseURL: server.url, apiKey: KEY });
    try {
      assert.equal(provider.id, 'anthropic:claude-test');
      assert.equal(provider.cacheable, true);
      const result = await provider.generate({ messages: [user('hello')], settings: { seed: 1 } }, live());
      assert.equal(result.text, 'echo: hello');
      assert.deepEqual(result.finishReason, { unified: 'stop', raw: 'end_turn' });
      // ⌈"hello" 5 / 4⌉ = 2 input tokens; ⌈"echo: hello" 11 / 4⌉ = 3 output tokens.
      assert.deepEqual(result.usage, { inputTokens: 2, outputTokens: 3 });
      assert.deepEqual(result.warnings.map((w) => w.feature), ['seed']);
      const recorded = server.requests.at(-1);
      assert.equal(recorded?.path, '/v1/messages');
      assert.equal(recorded?.hadCredential, true);
      assert.equal(recorded?.credentialLength, KEY.length);
      assert.equal(recorded?.headers['anthropic-version'], ANTHROPIC_VERSION);
      assert.deepEqual(recorded?.body, { model: 'claude-test', max_tokens: 1024, messages: [{ role: 'user', content: 'hello' }] });
    } finally {
      await provider.close?.();
    }
  });

  it('scrubs the key from an answer that echoes it', async () => {
    const provider = createAnthropicProvider({ model: 'claude-test', baseURL: server.url, apiKey: KEY });
    const result = await provider.generate({ messages: [user('echo the key')], settings: {} }, live());
    await provider.close?.();
    assert.equal(result.text, 'your key is [REDACTED]');
    assert.equal(JSON.stringify(result.rawResponse).includes(KEY), false);
  });

  it('maps 429 (with retry-after), 529 and a broken body to retryable errors', async () => {
    const provider = createAnthropicProvider({ model: 'claude-test', baseURL: server.url, apiKey: KEY });
    try {
      await assert.rejects(provider.generate({ messages: [user('limited')], settings: {} }, live()), (error: unknown) => isCallError('rate-limit')(error) && (error as ModelCallError).extra.retryAfterMs === 2000);
      await assert.rejects(provider.generate({ messages: [user('overloaded')], settings: {} }, live()), (error: unknown) => isCallError('server')(error) && /overloaded_error/.test((error as Error).message));
      await assert.rejects(provider.generate({ messages: [user('broken')], settings: {} }, live()), isCallError('bad-response'));
    } finally {
      await provider.close?.();
    }
  });

  it('reports a wrong base URL (404) as not-found, and an aborted or closed provider as aborted', async () => {
    const provider = createAnthropicProvider({ model: 'claude-test', baseURL: `${server.url}/nowhere`, apiKey: KEY });
    await assert.rejects(provider.generate({ messages: [user('x')], settings: {} }, live()), isCallError('not-found'));
    await provider.close?.();
    const ok = createAnthropicProvider({ model: 'claude-test', baseURL: server.url, apiKey: KEY });
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await assert.rejects(ok.generate({ messages: [user('x')], settings: {} }, { signal: controller.signal }), isCallError('aborted'));
    await ok.close?.();
    await assert.rejects(ok.generate({ messages: [user('x')], settings: {} }, live()), isCallError('aborted'));
  });
});
