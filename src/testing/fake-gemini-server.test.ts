import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { startFakeGeminiServer, type FakeGeminiServer } from './fake-gemini-server.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: unknown;
}

/** One raw HTTP call with node:http (independent of the provider under test elsewhere). */
function post(url: string, path: string, body: unknown, headers: Record<string, string> = { 'x-goog-api-key': 'AIza-abcdefgh' }): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, json: text === '' ? undefined : (JSON.parse(text) as unknown) }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const ROUTE = '/models/gemini-fake:generateContent';
const request = (last: string) => ({
  systemInstruction: { parts: [{ text: 'be kind' }] },
  contents: [
    { role: 'user', parts: [{ text: 'first question' }] },
    { role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }] },
    { role: 'user', parts: [{ functionResponse: { name: 'f', response: { name: 'f', content: 'result' } } }] },
    { role: 'user', parts: [{ text: last }] },
  ],
});

describe('fake Gemini server', () => {
  const servers: FakeGeminiServer[] = [];
  const start = async (...args: Parameters<typeof startFakeGeminiServer>): Promise<FakeGeminiServer> => {
    const server = await startFakeGeminiServer(...args);
    servers.push(server);
    return server;
  };
  after(() => Promise.all(servers.map((s) => s.close())));

  it('answers with a complete generateContent body by default, model from the path', async () => {
    const server = await start();
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/v1beta$/);
    const reply = await post(server.url, ROUTE, request('what now'));
    assert.equal(reply.status, 200);
    // Prompt characters: 7 + 14 + 6 + 8 = 35 → 9; "echo: what now" 14 → 4.
    assert.deepEqual(reply.json, {
      candidates: [{ content: { role: 'model', parts: [{ text: 'echo: what now' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 4, totalTokenCount: 13 },
      modelVersion: 'gemini-fake',
      responseId: 'fake-0',
    });
    assert.equal(server.requests[0]?.key, 'what now');
    assert.equal(server.requests[0]?.credentialLength, 'AIza-abcdefgh'.length);
    assert.equal(server.requests[0]?.headers['x-goog-api-key'], undefined);
  });

  it('wraps function calls, blocked prompts and safety stops', async () => {
    const server = await start({
      respond: (_body, ctx) => {
        if (ctx.key === 'call') return { functionCalls: [{ name: 'lookup', args: { q: 1 } }] };
        if (ctx.key === 'block') return { blockReason: 'SAFETY', safetyRatings: [{ category: 'HARM_CATEGORY_HARASSMENT', probability: 'HIGH' }] };
        return { finishReason: 'SAFETY', safetyRatings: [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true }] };
      },
    });
    const call = (await post(server.url, ROUTE, request('call'))).json as { candidates: { content: unknown }[] };
    assert.deepEqual(call.candidates[0]?.content, { role: 'model', parts: [{ functionCall: { name: 'lookup', args: { q: 1 } } }] });
    const block = (await post(server.url, ROUTE, request('block'))).json as Record<string, unknown>;
    assert.equal(block.candidates, undefined);
    assert.deepEqual(block.promptFeedback, { blockReason: 'SAFETY', safetyRatings: [{ category: 'HARM_CATEGORY_HARASSMENT', probability: 'HIGH' }] });
    const stopped = (await post(server.url, ROUTE, request('stop'))).json as { candidates: { finishReason: string }[] };
    assert.equal(stopped.candidates[0]?.finishReason, 'SAFETY');
  });

  it('sends 429 RESOURCE_EXHAUSTED with RetryInfo in the body, and Google’s envelope for other errors', async () => {
    const server = await start({ faults: (ctx) => (ctx.key === 'quota' ? { type: 'status', status: 429, retryAfterMs: 30 } : ctx.key === 'down' ? { type: 'status', status: 503 } : undefined) });
    const quota = await post(server.url, ROUTE, request('quota'));
    assert.equal(quota.status, 429);
    assert.equal(quota.headers['retry-after'], undefined);
    const error = (quota.json as { error: { code: number; status: string; details: { '@type': string; retryDelay?: string }[] } }).error;
    assert.equal(error.code, 429);
    assert.equal(error.status, 'RESOURCE_EXHAUSTED');
    assert.deepEqual(error.details.find((d) => d['@type'].endsWith('RetryInfo')), { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0.030s' });
    assert.deepEqual(((await post(server.url, ROUTE, request('down'))).json as { error: unknown }).error, { code: 503, message: 'fake error 503', status: 'UNAVAILABLE' });
    assert.equal((await post(server.url, '/models/x:streamGenerateContent', request('x'))).status, 404);
    assert.equal((await post(server.url, ROUTE, { messages: [] })).status, 400);
  });
});
