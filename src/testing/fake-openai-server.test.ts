import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { faultPlan, startFakeOpenAIServer, type FakeServer } from './fake-openai-server.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One raw HTTP call with node:http (independent of the provider under test elsewhere). */
function post(url: string, body: unknown, headers: Record<string, string> = {}, path = '/chat/completions', method = 'POST'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const payload = typeof body === 'string' ? body : JSON.stringify(body);
    const req = httpRequest(`${url}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const chat = (last: string, model = 'fake-1') => ({ model, messages: [{ role: 'system', content: 'be kind' }, { role: 'user', content: 'first question' }, { role: 'assistant', content: 'ok' }, { role: 'user', content: last }] });

describe('fake OpenAI server', () => {
  const servers: FakeServer[] = [];
  const start = async (...args: Parameters<typeof startFakeOpenAIServer>): Promise<FakeServer> => {
    const server = await startFakeOpenAIServer(...args);
    servers.push(server);
    return server;
  };
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it('answers with a complete chat-completions body by default', async () => {
    const server = await start();
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const reply = await post(server.url, chat('what is two plus two'));
    assert.equal(reply.status, 200);
    const body = JSON.parse(reply.text) as Record<string, unknown>;
    assert.equal(body.object, 'chat.completion');
    assert.equal(body.model, 'fake-1');
    assert.deepEqual(body.choices, [{ index: 0, message: { role: 'assistant', content: 'echo: what is two plus two', refusal: null }, finish_reason: 'stop', logprobs: null }]);
    // Characters: "be kind" 7 + "first question" 14 + "ok" 2 + "what is two plus two" 20 = 43 → ⌈43/4⌉ = 11;
    // "echo: what is two plus two" 26 → ⌈26/4⌉ = 7.
    assert.deepEqual(body.usage, { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
  });

  it('wraps tool calls from respond and records the request', async () => {
    const server = await start({ respond: (_body, ctx) => ({ toolCalls: [{ name: 'lookup', arguments: `{"q":"${ctx.key}"}` }], usage: { prompt_tokens: 3, completion_tokens: 4 } }) });
    const reply = await post(server.url, chat('find me'), { authorization: 'Bearer abcdefghij', 'x-extra': 'yes' });
    const body = JSON.parse(reply.text) as { choices: { message: unknown; finish_reason: string }[] };
    assert.deepEqual(body.choices[0]?.message, {
      role: 'assistant',
      content: null,
      refusal: null,
      tool_calls: [{ id: 'call_0_0', type: 'function', function: { name: 'lookup', arguments: '{"q":"find me"}' } }],
    });
    assert.equal(body.choices[0]?.finish_reason, 'tool_calls');
    const [recorded] = server.requests;
    assert.equal(recorded?.key, 'find me');
    assert.equal(recorded?.attemptForKey, 1);
    assert.equal(recorded?.hadCredential, true);
    assert.equal(recorded?.credentialLength, 10);
    assert.equal(recorded?.headers.authorization, undefined, 'the key itself is never recorded');
    assert.equal(recorded?.headers['x-extra'], 'yes');
    assert.equal(recorded?.outcome, 'answered');
    assert.equal(recorded?.status, 200);
    assert.deepEqual(recorded?.body, chat('find me'));
    assert.equal(recorded?.rawBody, JSON.stringify(chat('find me')));
    assert.ok(recorded?.finishedAt !== undefined && recorded.finishedAt >= recorded.receivedAt);
  });

  it('injects faults by key and attempt, and counts answers per key', async () => {
    const server = await start({
      faults: (ctx) => {
        if (ctx.key === 'limited' && ctx.attemptForKey === 1) return { type: 'status', status: 429, retryAfter: '3', retryAfterMs: 40 };
        if (ctx.key === 'broken') return { type: 'bad-json' };
        if (ctx.key === 'custom') return { type: 'status', status: 400, body: 'nope' };
        return undefined;
      },
    });
    const first = await post(server.url, chat('limited'));
    assert.equal(first.status, 429);
    assert.equal(first.headers['retry-after'], '3');
    assert.equal(first.headers['retry-after-ms'], '40');
    assert.equal((JSON.parse(first.text) as { error: { type: string } }).error.type, 'rate_limit_exceeded');
    assert.equal((await post(server.url, chat('limited'))).status, 200);
    const broken = await post(server.url, chat('broken'));
    assert.equal(broken.status, 200);
    assert.throws(() => JSON.parse(broken.text));
    assert.deepEqual(await post(server.url, chat('custom')).then((r) => [r.status, r.text]), [400, 'nope']);
    assert.deepEqual(server.requests.map((r) => [r.key, r.attemptForKey, r.outcome, r.status]), [
      ['limited', 1, 'status', 429],
      ['limited', 2, 'answered', 200],
      ['broken', 1, 'bad-json', 200],
      ['custom', 1, 'status', 400],
    ]);
    assert.deepEqual([...server.answeredByKey], [['limited', 1]]);
    assert.deepEqual([...server.attemptsByKey], [['limited', 2], ['broken', 1], ['custom', 1]]);
  });

  it('resets the socket on a reset fault', async () => {
    const server = await start({ faults: () => ({ type: 'reset' }) });
    await assert.rejects(post(server.url, chat('x')), (error: NodeJS.ErrnoException) => error.code === 'ECONNRESET' || error.message.includes('socket hang up'));
    assert.equal(server.requests[0]?.outcome, 'reset');
  });

  it('waits the configured latency, per request', async () => {
    const server = await start({ latencyMs: (ctx) => (ctx.key === 'slow' ? 120 : 0) });
    const t0 = performance.now();
    await post(server.url, chat('fast'));
    const fast = performance.now() - t0;
    const t1 = performance.now();
    await post(server.url, chat('slow'));
    const slow = performance.now() - t1;
    assert.ok(slow >= 115, `slow took ${slow} ms`);
    assert.ok(fast < 100, `fast took ${fast} ms`);
  });

  it('answers 404 off the route and 400 for a body without messages', async () => {
    const server = await start({ basePath: '/openai/v1/' });
    assert.match(server.url, /\/openai\/v1$/);
    assert.equal((await post(server.url, chat('x'), {}, '/completions')).status, 404);
    assert.equal((await post(server.url, chat('x'), {}, '/chat/completions', 'PUT')).status, 404);
    assert.equal((await post(server.url, 'not json')).status, 400);
    assert.equal((await post(server.url, { model: 'm' })).status, 400);
    assert.equal((await post(server.url, chat('x'))).status, 200);
    assert.deepEqual(server.requests.map((r) => r.outcome), ['not-found', 'not-found', 'invalid', 'invalid', 'answered']);
  });

  it('switches behaviour with setBehavior, and can skip recording', async () => {
    const server = await start({ record: false });
    server.setBehavior({ respond: () => ({ text: 'changed', finishReason: 'length', model: 'other' }) });
    const body = JSON.parse((await post(server.url, chat('x'))).text) as { model: string; choices: { message: { content: string }; finish_reason: string }[] };
    assert.equal(body.model, 'other');
    assert.equal(body.choices[0]?.message.content, 'changed');
    assert.equal(body.choices[0]?.finish_reason, 'length');
    server.setBehavior({ faults: faultPlan({ rate500: 1 }) });
    assert.equal((await post(server.url, chat('y'))).status, 500);
    assert.equal((await post(server.url, chat('y'))).status, 200, 'plans fault first attempts only');
    server.setBehavior({ faults: undefined });
    assert.equal((await post(server.url, chat('z'))).status, 200);
    assert.equal(server.requests.length, 0);
    assert.equal(server.requestCount, 4);
  });

  it('can skip counting per key: every request is then a first attempt', async () => {
    const server = await start({ record: false, countByKey: false, faults: faultPlan({ rate500: 1 }) });
    assert.equal((await post(server.url, chat('y'))).status, 500);
    assert.equal((await post(server.url, chat('y'))).status, 500, 'without counts the retry is a first attempt again');
    server.setBehavior({ faults: undefined });
    assert.equal((await post(server.url, chat('y'))).status, 200);
    assert.equal(server.attemptsByKey.size, 0);
    assert.equal(server.answeredByKey.size, 0);
    assert.equal(server.requestCount, 3);
  });

  it('turns an exception in respond into a 500', async () => {
    const server = await start({ respond: () => { throw new Error('boom'); } });
    const reply = await post(server.url, chat('x'));
    assert.equal(reply.status, 500);
    assert.match(reply.text, /respond threw: boom/);
    assert.equal(server.requests[0]?.outcome, 'respond-threw');
  });

  it('closes promptly with a hung request and a pending latency timer', async () => {
    const server = await startFakeOpenAIServer({ faults: (ctx) => (ctx.key === 'hang' ? { type: 'hang' } : undefined), latencyMs: (ctx) => (ctx.key === 'slow' ? 60_000 : 0) });
    // Settled at once into a value, so that their rejection is never unhandled while close() runs.
    const settle = (p: Promise<Reply>): Promise<string> => p.then(() => 'answered', () => 'failed');
    const hung = settle(post(server.url, chat('hang')));
    const slow = settle(post(server.url, chat('slow')));
    while (server.requestCount < 2) await new Promise((r) => setTimeout(r, 5));
    const t0 = performance.now();
    await server.close();
    assert.ok(performance.now() - t0 < 1000);
    assert.equal(await hung, 'failed');
    assert.equal(await slow, 'failed');
    assert.equal(server.requests.find((r) => r.key === 'hang')?.outcome, 'hang');
    assert.equal(server.requests.find((r) => r.key === 'slow')?.outcome, 'server-closed');
    assert.ok(server.requests.every((r) => r.finishedAt !== undefined));
  });

  it('records a client that leaves before the answer', async () => {
    const server = await start({ latencyMs: 150 });
    const req = httpRequest(`${server.url}/chat/completions`, { method: 'POST', agent: false });
    req.on('error', () => {}); // the abort below is the point of the test
    req.end(JSON.stringify(chat('leaving')));
    while (server.requestCount < 1) await new Promise((r) => setTimeout(r, 5));
    req.destroy();
    const deadline = Date.now() + 2000;
    while (server.requests[0]?.outcome === 'pending' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    assert.equal(server.requests[0]?.outcome, 'client-closed');
    assert.equal(server.answeredByKey.get('leaving'), undefined);
  });
});
