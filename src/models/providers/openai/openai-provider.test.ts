import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InputError, ModelCallError, assistant, composedUserMessage, plainMessage, sharedText, system, user, type GenerateRequest, type Message, type TextParts } from '../../../core/index.js';
import { startFakeOpenAIServer, type FakeServer } from '../../../testing/fake-openai-server.js';
import { buildOpenAIRequestBody, createOpenAIProvider, openAIRequestJson } from './openai-provider.js';
import type { GenerateOptions, ModelProvider } from '../../spec.js';
import { AttemptAbort } from '../../middleware/attempt-abort.js';

const KEY = 'sk-test-0123456789abcdefSECRET';
const request = (messages: readonly Message[], extra: Partial<GenerateRequest> = {}): GenerateRequest => ({ messages, settings: {}, ...extra });
const signal = (): AbortSignal => new AbortController().signal;

/** Awaits a rejection and returns it as a ModelCallError (failing the test if it is anything else). */
async function callError(promise: Promise<unknown>): Promise<ModelCallError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ModelCallError, `expected ModelCallError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}

describe('openai provider over HTTP', () => {
  let server: FakeServer;
  const providers: ModelProvider[] = [];
  const savedKey = process.env.OPENAI_API_KEY;
  const savedBase = process.env.OPENAI_BASE_URL;
  const provider = (options: { apiKey?: string; headers?: Record<string, string>; baseURL?: string } = {}): ModelProvider => {
    const p = createOpenAIProvider({ model: 'gpt-test', baseURL: server.url, ...options });
    providers.push(p);
    return p;
  };

  before(async () => {
    // The tests decide about keys themselves; a developer's environment must not leak in.
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    server = await startFakeOpenAIServer();
  });
  afterEach(() => {
    server.setBehavior({ respond: undefined, faults: undefined, latencyMs: undefined });
  });
  after(async () => {
    await Promise.all(providers.map((p) => p.close?.()));
    await server.close();
    if (savedKey !== undefined) process.env.OPENAI_API_KEY = savedKey;
    if (savedBase !== undefined) process.env.OPENAI_BASE_URL = savedBase;
  });

  it('identifies itself as cacheable openai:<model>', () => {
    const p = provider();
    assert.equal(p.id, 'openai:gpt-test');
    assert.equal(p.cacheable, true);
    assert.equal(p.specVersion, 'v1');
  });

  it('returns a text answer with usage, finish reason and raw response', async () => {
    server.setBehavior({ respond: () => ({ text: 'Paris.', usage: { prompt_tokens: 11, completion_tokens: 3 } }) });
    const result = await provider().generate(request([user('Capital of France?')]), { signal: signal() });
    assert.equal(result.text, 'Paris.');
    assert.deepEqual(result.toolCalls, []);
    assert.deepEqual(result.finishReason, { unified: 'stop', raw: 'stop' });
    assert.deepEqual(result.usage, { inputTokens: 11, outputTokens: 3 });
    assert.deepEqual(result.warnings, []);
    assert.equal(result.responseModel, undefined, 'same model as asked for');
    const raw = result.rawResponse as { object: string; choices: { message: { content: string } }[] };
    assert.equal(raw.object, 'chat.completion');
    assert.equal(raw.choices[0]?.message.content, 'Paris.');
  });

  it('reports a different response model, a refusal warning and a length finish', async () => {
    server.setBehavior({ respond: () => ({ text: 'cut', model: 'gpt-test-2025-01-01', refusal: 'I cannot help with that.', finishReason: 'length' }) });
    const result = await provider().generate(request([user('q')]), { signal: signal() });
    assert.equal(result.responseModel, 'gpt-test-2025-01-01');
    assert.deepEqual(result.warnings, [{ type: 'other', feature: 'refusal', details: 'I cannot help with that.' }]);
    assert.deepEqual(result.finishReason, { unified: 'length', raw: 'length' });
  });

  it('parses tool calls, keeping malformed arguments as data', async () => {
    server.setBehavior({
      respond: () => ({
        toolCalls: [
          { id: 'call_a', name: 'get_weather', arguments: '{"city":"Oslo","days":2}' },
          { id: 'call_b', name: 'search', arguments: '{"q": "unterminated' },
          { id: 'call_c', name: 'now', arguments: '' },
        ],
      }),
    });
    const result = await provider().generate(request([user('weather?')]), { signal: signal() });
    assert.equal(result.text, '', 'null content becomes empty text');
    assert.deepEqual(result.finishReason, { unified: 'tool-calls', raw: 'tool_calls' });
    assert.equal(result.toolCalls.length, 3);
    assert.deepEqual(result.toolCalls[0], { id: 'call_a', name: 'get_weather', arguments: { city: 'Oslo', days: 2 }, rawArguments: '{"city":"Oslo","days":2}' });
    const bad = result.toolCalls[1];
    assert.equal(bad?.name, 'search');
    assert.equal(bad?.arguments, undefined);
    assert.equal(bad?.rawArguments, '{"q": "unterminated');
    assert.equal(typeof bad?.parseError, 'string');
    assert.deepEqual(result.toolCalls[2], { id: 'call_c', name: 'now', arguments: {}, rawArguments: '' });
  });

  it('sends the mapped settings, tools and messages, and never the hints', async () => {
    const before = server.requests.length;
    const messages: Message[] = [
      system('be brief'),
      user('weather in Oslo?'),
      assistant('', [{ id: 'call_1', name: 'get_weather', arguments: undefined, rawArguments: '{"city":"Oslo"', parseError: 'x' }]),
      { role: 'tool', toolCallId: 'call_1', name: 'get_weather', content: 'sunny' },
      user('and tomorrow?'),
    ];
    await provider().generate(
      {
        messages,
        tools: [{ name: 'get_weather', description: 'Weather by city', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
        settings: { temperature: 0, topP: 0.9, maxTokens: 50, seed: 7, stop: ['\n\n'] },
        hints: { kind: 'yes-no', query: 'weather in Oslo?' },
      },
      { signal: signal() },
    );
    assert.equal(server.requests.length, before + 1);
    const recorded = server.requests[before];
    assert.equal(recorded?.method, 'POST');
    assert.equal(recorded?.path, '/v1/chat/completions');
    assert.equal(recorded?.key, 'and tomorrow?');
    assert.deepEqual(recorded?.body, {
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'weather in Oslo?' },
        { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
        { role: 'user', content: 'and tomorrow?' },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather by city', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
      temperature: 0,
      top_p: 0.9,
      max_tokens: 50,
      seed: 7,
      stop: ['\n\n'],
    });
    assert.equal(recorded?.headers['content-type'], 'application/json');
  });

  it('omits unset settings and empty tools', async () => {
    const before = server.requests.length;
    await provider().generate(request([user('hi')], { tools: [], settings: { stop: [] } }), { signal: signal() });
    assert.deepEqual(server.requests[before]?.body, { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
  });

  it('asks for structured output as a strict json_schema response_format', async () => {
    const before = server.requests.length;
    const schema = { type: 'object', properties: { verdict: { type: 'string', enum: ['pass', 'fail'] } }, required: ['verdict'], additionalProperties: false };
    server.setBehavior({ respond: () => ({ text: '{"verdict":"pass"}' }) });
    const result = await provider().generate(request([user('grade')], { responseFormat: { type: 'json', name: 'verdict', schema } }), { signal: signal() });
    assert.equal(result.text, '{"verdict":"pass"}');
    assert.deepEqual(server.requests[before]?.body, {
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'grade' }],
      response_format: { type: 'json_schema', json_schema: { name: 'verdict', schema, strict: true } },
    });
  });

  it('sends Authorization only when a key is given, and extra headers', async () => {
    const before = server.requests.length;
    await provider().generate(request([user('no key')]), { signal: signal() });
    await provider({ apiKey: KEY, headers: { 'x-trace': 'abc' } }).generate(request([user('with key')]), { signal: signal() });
    const [withoutKey, withKey] = server.requests.slice(before);
    assert.equal(withoutKey?.hadCredential, false);
    assert.equal(withKey?.hadCredential, true);
    assert.equal(withKey?.credentialLength, KEY.length);
    assert.equal(withKey?.headers['x-trace'], 'abc');
  });

  it('lets an extra Authorization header replace the bearer key, whatever its case', async () => {
    const before = server.requests.length;
    await provider({ apiKey: KEY, headers: { Authorization: 'Bearer other-token' } }).generate(request([user('own auth')]), { signal: signal() });
    assert.equal(server.requests[before]?.credentialLength, 'other-token'.length);
    server.setBehavior({ faults: (ctx) => ({ type: 'status', status: 401, body: `bad token ${String(ctx.headers.authorization).slice('Bearer '.length)}` }) });
    const error = await callError(provider({ headers: { Authorization: 'Bearer other-token' } }).generate(request([user('own auth')]), { signal: signal() }));
    assert.ok(error.message.endsWith('bad token [REDACTED]'), error.message);
  });

  it('uses OPENAI_API_KEY when no key is passed', async () => {
    process.env.OPENAI_API_KEY = KEY;
    try {
      const before = server.requests.length;
      await provider().generate(request([user('env key')]), { signal: signal() });
      assert.equal(server.requests[before]?.credentialLength, KEY.length);
    } finally {
      delete process.env.OPENAI_API_KEY;
    }
  });

  it('joins a base URL with a trailing slash without doubling it', async () => {
    const before = server.requests.length;
    await provider({ baseURL: `${server.url}/` }).generate(request([user('slash')]), { signal: signal() });
    assert.equal(server.requests[before]?.path, '/v1/chat/completions');
  });

  const statusCases: { status: number; kind: ModelCallError['kind'] }[] = [
    { status: 400, kind: 'bad-request' },
    { status: 401, kind: 'auth' },
    { status: 403, kind: 'auth' },
    { status: 404, kind: 'not-found' },
    { status: 429, kind: 'rate-limit' },
    { status: 500, kind: 'server' },
    { status: 503, kind: 'server' },
  ];
  for (const { status, kind } of statusCases) {
    it(`maps HTTP ${status} to ${kind} with status and server message`, async () => {
      server.setBehavior({ faults: () => ({ type: 'status', status, body: JSON.stringify({ error: { message: `problem number ${status}` } }) }) });
      const error = await callError(provider().generate(request([user('q')]), { signal: signal() }));
      assert.equal(error.kind, kind);
      assert.equal(error.extra.status, status);
      assert.match(error.message, new RegExp(`HTTP ${status}\\b.*: problem number ${status}$`));
      assert.equal(error.extra.retryAfterMs, undefined);
    });
  }

  it('reads Retry-After in seconds on a 429', async () => {
    server.setBehavior({ faults: () => ({ type: 'status', status: 429, retryAfter: '7' }) });
    const error = await callError(provider().generate(request([user('q')]), { signal: signal() }));
    assert.equal(error.kind, 'rate-limit');
    assert.equal(error.extra.retryAfterMs, 7000);
  });

  it('prefers retry-after-ms over Retry-After', async () => {
    server.setBehavior({ faults: () => ({ type: 'status', status: 429, retryAfter: '7', retryAfterMs: 250 }) });
    const error = await callError(provider().generate(request([user('q')]), { signal: signal() }));
    assert.equal(error.extra.retryAfterMs, 250);
  });

  it('reads Retry-After as an HTTP date, and carries it on a 503', async () => {
    // A whole second 30 s ahead, so the header (second resolution) loses nothing.
    const target = Math.ceil(Date.now() / 1000) * 1000 + 30_000;
    server.setBehavior({ faults: () => ({ type: 'status', status: 503, retryAfter: new Date(target).toUTCString() }) });
    const error = await callError(provider().generate(request([user('q')]), { signal: signal() }));
    assert.equal(error.kind, 'server');
    const ms = error.extra.retryAfterMs;
    assert.ok(ms !== undefined && ms > 25_000 && ms <= 31_000, `retryAfterMs ${String(ms)} should be about 30 s`);
  });

  it('truncates a long server message to 500 characters', async () => {
    server.setBehavior({ faults: () => ({ type: 'status', status: 400, body: JSON.stringify({ error: { message: 'x'.repeat(2000) } }) }) });
    const error = await callError(provider().generate(request([user('q')]), { signal: signal() }));
    const detail = error.message.slice(error.message.lastIndexOf(': ') + 2);
    assert.equal(detail.length, 500);
    assert.ok(detail.startsWith('xxxx'));
  });

  it('uses a non-JSON error body as the message', async () => {
    server.setBehavior({ faults: () => ({ type: 'status', status: 502, body: '<html>\n<b>Bad gateway</b>\n</html>' }) });
    const error = await callError(provider().generate(request([user('q')]), { signal: signal() }));
    assert.equal(error.kind, 'server');
    assert.ok(error.message.endsWith(': <html> <b>Bad gateway</b> </html>'), error.message);
  });

  it('maps a 200 with a non-JSON body to bad-response', async () => {
    server.setBehavior({ faults: () => ({ type: 'bad-json' }) });
    const error = await callError(provider().generate(request([user('q')]), { signal: signal() }));
    assert.equal(error.kind, 'bad-response');
    assert.equal(error.retryable, true);
  });

  it('maps a 200 without choices[0].message to bad-response', async () => {
    for (const rawBody of [{ id: 'x', choices: [] }, { choices: [{ finish_reason: 'stop' }] }, [1, 2]]) {
      server.setBehavior({ respond: () => ({ rawBody }) });
      const error = await callError(provider().generate(request([user('q')]), { signal: signal() }));
      assert.equal(error.kind, 'bad-response', JSON.stringify(rawBody));
    }
  });

  it('maps a reset connection to network', async () => {
    server.setBehavior({ faults: () => ({ type: 'reset' }) });
    const error = await callError(provider().generate(request([user('q')]), { signal: signal() }));
    assert.equal(error.kind, 'network');
    assert.equal(error.retryable, true);
  });

  it('maps an aborted signal to aborted, and the server sees the client leave', async () => {
    server.setBehavior({ faults: () => ({ type: 'hang' }) });
    const before = server.requests.length;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await callError(provider().generate(request([user('hang me')]), { signal: controller.signal }));
    assert.equal(error.kind, 'aborted');
    assert.equal(server.requests[before]?.outcome, 'hang');
  });

  it('rethrows the abort reason when it is already a ModelCallError (middleware timeout)', async () => {
    server.setBehavior({ latencyMs: 5_000 });
    const timeout = new ModelCallError('timeout', 'no answer within 30 ms');
    const controller = new AbortController();
    setTimeout(() => controller.abort(timeout), 30);
    const error = await callError(provider().generate(request([user('slow')]), { signal: controller.signal }));
    assert.equal(error, timeout);
  });

  it("listens to the middleware's AttemptAbort when given, never reading the signal: a timeout's reason, a stop, one already aborted", async () => {
    const options = (abort: AttemptAbort): GenerateOptions => ({
      get signal(): AbortSignal {
        throw new Error('the signal was read');
      },
      abort,
    });
    server.setBehavior({ latencyMs: 5_000 });
    const timed = new AttemptAbort();
    const timeout = new ModelCallError('timeout', 'no answer within 30 ms');
    setTimeout(() => timed.abort(timeout), 30);
    assert.equal(await callError(provider().generate(request([user('slow')]), options(timed))), timeout);

    server.setBehavior({ latencyMs: undefined, faults: () => ({ type: 'hang' }) });
    const before = server.requests.length;
    const stopped = new AttemptAbort();
    setTimeout(() => stopped.abort(), 50);
    assert.equal((await callError(provider().generate(request([user('hang me')]), options(stopped)))).kind, 'aborted');
    assert.equal(server.requests[before]?.outcome, 'hang');

    const count = server.requestCount;
    const already = new AttemptAbort();
    already.abort();
    assert.equal((await callError(provider().generate(request([user('q')]), options(already)))).kind, 'aborted');
    assert.equal(server.requestCount, count);

    server.setBehavior({ faults: undefined, latencyMs: undefined });
    const answered = new AttemptAbort();
    assert.equal(typeof (await provider().generate(request([user('Capital of France?')]), options(answered))).text, 'string');
  });

  it('does not send anything when the signal is already aborted', async () => {
    const before = server.requestCount;
    const controller = new AbortController();
    controller.abort();
    const error = await callError(provider().generate(request([user('q')]), { signal: controller.signal }));
    assert.equal(error.kind, 'aborted');
    assert.equal(server.requestCount, before);
  });

  it('never leaks the key, even when the server echoes it', async () => {
    server.setBehavior({
      faults: (ctx) => ({ type: 'status', status: 401, body: JSON.stringify({ error: { message: `Incorrect API key provided: ${String(ctx.headers.authorization)}` } }) }),
    });
    const error = await callError(provider({ apiKey: KEY }).generate(request([user('q')]), { signal: signal() }));
    assert.equal(error.kind, 'auth');
    assert.ok(error.message.includes('[REDACTED]'), error.message);
    for (const text of [error.message, JSON.stringify(error.extra), String(error.stack)]) assert.ok(!text.includes(KEY), text);

    server.setBehavior({ faults: undefined, respond: (_body, ctx) => ({ text: `you sent ${String(ctx.headers.authorization)}` }) });
    const result = await provider({ apiKey: KEY }).generate(request([user('q')]), { signal: signal() });
    assert.equal(result.text, 'you sent Bearer [REDACTED]');
    assert.ok(!JSON.stringify(result).includes(KEY));
  });

  it('redacts secret-looking extra headers too', async () => {
    const proxyKey = 'proxy-key-abcdefgh12345';
    server.setBehavior({ faults: (ctx) => ({ type: 'status', status: 403, body: `denied for ${String(ctx.headers['x-api-key'])}` }) });
    const error = await callError(provider({ headers: { 'x-api-key': proxyKey } }).generate(request([user('q')]), { signal: signal() }));
    assert.ok(!error.message.includes(proxyKey), error.message);
    assert.ok(error.message.endsWith('denied for [REDACTED]'), error.message);
  });

  it('serves many concurrent calls over a few keep-alive connections', async () => {
    server.setBehavior({ latencyMs: 2, respond: (_body, ctx) => ({ text: ctx.key.toUpperCase() }) });
    const p = createOpenAIProvider({ model: 'gpt-test', baseURL: server.url, connections: 8 });
    providers.push(p);
    const keys = Array.from({ length: 200 }, (_, i) => `load ${i}`);
    const texts = await Promise.all(keys.map((key) => p.generate(request([user(key)]), { signal: signal() }).then((r) => r.text)));
    assert.deepEqual(texts, keys.map((key) => `LOAD ${key.slice(5)}`));
    for (const key of keys) assert.equal(server.answeredByKey.get(key), 1, key);
  });

  it('rejects a connection count that is not a positive integer', () => {
    for (const connections of [0, -1, 2.5]) {
      assert.throws(() => createOpenAIProvider({ model: 'm', baseURL: server.url, connections }), InputError);
    }
  });

  it('refuses calls after close', async () => {
    const p = createOpenAIProvider({ model: 'gpt-test', baseURL: server.url });
    await p.close?.();
    const error = await callError(p.generate(request([user('q')]), { signal: signal() }));
    assert.equal(error.kind, 'aborted');
  });
});

describe('openai provider without a server', () => {
  it('maps connection refused (a closed port) to network', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const p = createOpenAIProvider({ model: 'm', baseURL: `http://127.0.0.1:${port}/v1`, apiKey: KEY });
    try {
      const error = await callError(p.generate(request([user('q')]), { signal: signal() }));
      assert.equal(error.kind, 'network');
      assert.match(error.message, /ECONNREFUSED/);
      assert.ok(!error.message.includes(KEY));
    } finally {
      await p.close?.();
    }
  });
});

describe('buildOpenAIRequestBody', () => {
  it('adds response_format only when the request has a response format', () => {
    const schema = { type: 'object' };
    assert.equal(buildOpenAIRequestBody('m', request([user('q')])).response_format, undefined);
    assert.deepEqual(buildOpenAIRequestBody('m', request([user('q')], { responseFormat: { type: 'json', name: 'verdict', schema } })).response_format, {
      type: 'json_schema',
      json_schema: { name: 'verdict', schema, strict: true },
    });
  });
});

describe('openAIRequestJson', () => {
  // Escaping at work: quotes, backslash, control characters, non-Latin-1 text, a line separator,
  // an empty part, a surrogate pair split between two parts, and a lone half.
  const parts: TextParts = [sharedText('Tools:\n"quoted"\t\\ back\u0001 é — \ud83d'), sharedText('\ude00 end\n'), 'query "q" \u2028', '', sharedText('lone \ud83d'), 'x'];
  const composed = (): Message => composedUserMessage(() => parts);
  const toolCall = { id: 'c1', name: 'f', arguments: { a: 1 }, rawArguments: '{"a":1}' };
  const tools = [{ name: 't', description: 'd', parameters: { type: 'object', properties: {} } }];

  it('is JSON.stringify of the body, byte for byte, its composed prompts written from their parts', () => {
    const requests: GenerateRequest[] = [
      request([user('plain')]),
      request([composed()]),
      request([plainMessage(composed())]),
      request([system('sys "s"'), composed(), assistant('', [toolCall]), plainMessage(composed()), user('after')], {
        settings: { temperature: 0.5, topP: 0.9, maxTokens: 7, seed: 3, stop: ['\n'] },
        tools,
        responseFormat: { type: 'json', name: 'verdict', schema: { type: 'object' } },
      } as Partial<GenerateRequest>),
      request([composedUserMessage(() => ['a\ud83d', '\ude00b'])], { settings: { maxTokens: 1 } }),
    ];
    for (const r of requests) assert.equal(openAIRequestJson('gpt "x"', r), JSON.stringify(buildOpenAIRequestBody('gpt "x"', r)));
  });

  it('sends the content a copy holds when it was replaced after the copy was made', () => {
    const copy = plainMessage(composed()) as { role: 'user'; content: string };
    openAIRequestJson('m', request([copy]));
    copy.content = 'replaced';
    assert.equal(openAIRequestJson('m', request([copy])), '{"model":"m","messages":[{"role":"user","content":"replaced"}]}');
  });
});
