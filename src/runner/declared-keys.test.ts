import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { user } from '../core/index.js';
import { parseConfig } from '../config/load-config.js';
import { startFakeOpenAIServer, type FakeServer } from '../testing/fake-openai-server.js';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../testing/fake-anthropic-server.js';
import { startFakeGeminiServer, type FakeGeminiServer } from '../testing/fake-gemini-server.js';
import { buildDeclaredModel } from './declared-models.js';

// Which key a declared model sends, seen by real loopback servers: a model with its own baseUrl
// is sent its apiKeyEnv's key or none — never the provider's usual variable, which holds the key
// of the provider's own endpoint. The usual variables are set in this process's environment, as
// a user's shell would have them, and the session's environment (process.env) is what is passed.

const USUAL = { OPENAI_API_KEY: 'sk-usual-openai-0123456789', ANTHROPIC_API_KEY: 'sk-ant-usual-0123456789', GEMINI_API_KEY: 'gm-usual-0123456789', GOOGLE_API_KEY: 'gg-usual-0123456789' };
const OWN_KEY = 'own-small-key-0123456789';

describe('the key a declared model sends to a loopback server', () => {
  let openai: FakeServer;
  let anthropic: FakeAnthropicServer;
  let gemini: FakeGeminiServer;
  /** The key header of each request, by server, as the server received it. */
  const seen: Record<'openai' | 'anthropic' | 'gemini', (string | undefined)[]> = { openai: [], anthropic: [], gemini: [] };
  const saved: Record<string, string | undefined> = {};

  before(async () => {
    for (const [name, value] of Object.entries({ ...USUAL, SMALL_KEY: OWN_KEY, OPENAI_BASE_URL: undefined })) {
      saved[name] = process.env[name];
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    openai = await startFakeOpenAIServer({ respond: (_body, ctx) => (seen.openai.push(ctx.headers.authorization), { text: 'ok' }) });
    anthropic = await startFakeAnthropicServer({ respond: (_body, ctx) => (seen.anthropic.push(ctx.headers['x-api-key'] as string | undefined), { text: 'ok' }) });
    gemini = await startFakeGeminiServer({ respond: (_body, ctx) => (seen.gemini.push(ctx.headers['x-goog-api-key'] as string | undefined), { text: 'ok' }) });
  });
  after(async () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await Promise.all([openai.close(), anthropic.close(), gemini.close()]);
  });

  /** Builds `name` from a one-model file and makes one call through it. */
  async function callDeclared(lines: readonly string[]): Promise<void> {
    const config = parseConfig('assay.yaml', '/work/assay.yaml', ['models:', '  m:', ...lines.map((line) => `    ${line}`), ''].join('\n'));
    const { provider } = await buildDeclaredModel('m', config, process.env, 1);
    try {
      const result = await provider.generate({ messages: [user('hi')], settings: {} }, { signal: new AbortController().signal, sampleId: 's' });
      assert.equal(result.text, 'ok');
    } finally {
      await provider.close?.();
    }
  }

  it('openai with a baseUrl and no apiKeyEnv: no Authorization header, though OPENAI_API_KEY is set', async () => {
    await callDeclared(['provider: openai', 'model: small', `baseUrl: ${openai.url}`]);
    assert.deepEqual(seen.openai, [undefined]);
    assert.equal(openai.requests[0]?.hadCredential, false);
  });

  it('openai with a baseUrl and apiKeyEnv: that variable\'s value, and only it', async () => {
    await callDeclared(['provider: openai', 'model: small', `baseUrl: ${openai.url}`, 'apiKeyEnv: SMALL_KEY']);
    assert.equal(seen.openai.at(-1), `Bearer ${OWN_KEY}`);
    // Naming the usual variable sends it: the file says so.
    await callDeclared(['provider: openai', 'model: small', `baseUrl: ${openai.url}`, 'apiKeyEnv: OPENAI_API_KEY']);
    assert.equal(seen.openai.at(-1), `Bearer ${USUAL.OPENAI_API_KEY}`);
  });

  it('openai without a baseUrl: the usual variables, endpoint and key, as without a file', async () => {
    process.env.OPENAI_BASE_URL = openai.url;
    try {
      await callDeclared(['provider: openai', 'model: small']);
    } finally {
      delete process.env.OPENAI_BASE_URL;
    }
    assert.equal(seen.openai.at(-1), `Bearer ${USUAL.OPENAI_API_KEY}`);
  });

  it('anthropic and gemini with a baseUrl and no apiKeyEnv: no key header, though their usual variables are set', async () => {
    await callDeclared(['provider: anthropic', 'model: claude', `baseUrl: ${anthropic.url}`]);
    await callDeclared(['provider: gemini', 'model: gem', `baseUrl: ${gemini.url}`]);
    assert.deepEqual(seen.anthropic, [undefined]);
    assert.deepEqual(seen.gemini, [undefined]);
    await callDeclared(['provider: anthropic', 'model: claude', `baseUrl: ${anthropic.url}`, 'apiKeyEnv: SMALL_KEY']);
    await callDeclared(['provider: gemini', 'model: gem', `baseUrl: ${gemini.url}`, 'apiKeyEnv: SMALL_KEY']);
    assert.deepEqual([seen.anthropic.at(-1), seen.gemini.at(-1)], [OWN_KEY, OWN_KEY]);
  });
});
