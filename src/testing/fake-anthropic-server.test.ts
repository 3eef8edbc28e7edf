import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { faultPlan, plannedFault, startFakeAnthropicServer, type FakeAnthropicServer } from './fake-anthropic-server.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: unknown;
  text: string;
}

const HEADERS = { 'x-api-key': 'sk-ant-abcdefghij', 'anthropic-version': '2023-06-01' };

/** One raw HTTP call with node:http (independent of the provider under test elsewhere). */
function post(url: string, body: unknown, headers: Record<string, string> = HEADERS, path = '/v1/messages'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, json, text });
      });
    });
    req.on('error', reject);
    req.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
}

const conversation = (last: string) => ({
  model: 'claude-fake',
  max_tokens: 100,
  system: 'be kind',
  messages: [
    { role: 'user', content: 'first question' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'result' }] },
    { role: 'user', content: [{ type: 'text', text: last }] },
  ],
});

describe('fake Anthropic server', () => {
  const servers: FakeAnthropicServer[] = [];
  const start = async (...args: Parameters<typeof startFakeAnthropicServer>): Promise<FakeAnthropicServer> => {
    const server = await startFakeAnthropicServer(...args);
    servers.push(server);
    return server;
  };
  after(() => Promise.all(servers.map((s) => s.close())));

  it('answers with a complete Messages body by default, keyed by the last user text', async () => {
    const server = await start();
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const reply = await post(server.url, conversation('what now'));
    assert.equal(reply.status, 200);
    // Prompt characters: "be kind" 7 + "first question" 14 + "result" 6 + "what now" 8 = 35 → 9; "echo: what now" 14 → 4.
    assert.deepEqual(reply.json, {
      id: 'msg_fake_0',
      type: 'message',
      role: 'assistant',
      model: 'claude-fake',
      content: [{ type: 'text', text: 'echo: what now' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 9, output_tokens: 4 },
    });
    const recorded = server.requests[0];
    assert.equal(recorded?.key, 'what now');
    assert.equal(recorded?.hadCredential, true);
    assert.equal(recorded?.credentialLength, 'sk-ant-abcdefghij'.length);
    assert.equal(recorded?.headers['x-api-key'], undefined, 'the key itself is never recorded');
  });

  it('skips tool_result-only user messages when keying, and wraps tool uses', async () => {
    const server = await start({ respond: () => ({ toolUses: [{ name: 'lookup', input: { q: 1 } }] }) });
    const body = conversation('unused');
    const reply = await post(server.url, { ...body, messages: body.messages.slice(0, 3) });
    assert.equal(server.requests[0]?.key, 'first question');
    assert.deepEqual((reply.json as { content: unknown }).content, [{ type: 'tool_use', id: 'toolu_fake_0_0', name: 'lookup', input: { q: 1 } }]);
    assert.equal((reply.json as { stop_reason: string }).stop_reason, 'tool_use');
  });

  it('refuses what the real API refuses: no anthropic-version, no max_tokens, no messages, another route', async () => {
    const server = await start();
    const noVersion = await post(server.url, conversation('x'), { 'x-api-key': 'k' });
    assert.equal(noVersion.status, 400);
    assert.deepEqual(noVersion.json, { type: 'error', error: { type: 'invalid_request_error', message: 'anthropic-version: header is required' }, request_id: 'req_fake_400' });
    const { max_tokens: _drop, ...noMax } = conversation('x');
    assert.equal((await post(server.url, noMax)).status, 400);
    assert.equal((await post(server.url, { model: 'm', max_tokens: 1 })).status, 400);
    assert.equal((await post(server.url, conversation('x'), HEADERS, '/v1/complete')).status, 404);
    assert.deepEqual(server.requests.map((r) => r.outcome), ['invalid', 'invalid', 'invalid', 'not-found']);
  });

  it('injects 429 rate_limit_error with retry-after and 529 overloaded_error from the shared fault plan', async () => {
    const server = await start({ faults: (ctx) => (ctx.key === 'busy' ? { type: 'status', status: 529 } : ctx.key === 'limited' && ctx.attemptForKey === 1 ? { type: 'status', status: 429, retryAfter: '1' } : undefined) });
    const limited = await post(server.url, conversation('limited'));
    assert.equal(limited.status, 429);
    assert.equal(limited.headers['retry-after'], '1');
    assert.equal((limited.json as { error: { type: string } }).error.type, 'rate_limit_error');
    assert.equal((await post(server.url, conversation('limited'))).status, 200);
    const busy = await post(server.url, conversation('busy'));
    assert.equal(busy.status, 529);
    assert.equal((busy.json as { error: { type: string } }).error.type, 'overloaded_error');
    // The plan is the OpenAI fake's: same keys hit for the same seed.
    const plan = { rate429: 0.5, seed: 3 };
    const planned = await start({ faults: faultPlan(plan) });
    for (const key of ['a', 'b', 'c', 'd']) {
      const reply = await post(planned.url, conversation(key));
      assert.equal(reply.status, plannedFault(plan, key) ? 429 : 200, key);
    }
  });
});
