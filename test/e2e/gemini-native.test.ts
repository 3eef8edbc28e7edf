import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { assistant, system, user, type Message, type ToolSpec } from '../../src/core/index.js';
import { createGeminiProvider } from '../../src/models/providers/gemini/index.js';
import type { Fault } from '../../src/testing/fault-plan.js';
import { plannedFault, startFakeGeminiServer, type FakeGeminiServer } from '../../src/testing/fake-gemini-server.js';
import { runFaultedMetaTool } from '../../src/testing/faulted-metatool-run.js';
import { answerMetaToolPrompt } from '../../src/testing/metatool-answerer.js';
import { needsData } from '../../src/testing/test-data.js';

const KEY = 'AIza-e2e-0123456789abcdef';
const MODEL = 'gemini:gemini-fake';
const SAMPLES = 60;
const RETRY_DELAY_MS = 300;
const plan = { rate429: 0.15, rate500: 0.15, seed: 13 };

/** The plan's faults in Gemini's words: 429 RESOURCE_EXHAUSTED with a RetryInfo of 0.300s, 503 UNAVAILABLE for a 500. */
function geminiFault(key: string): Fault | undefined {
  const fault = plannedFault(plan, key);
  if (fault?.type !== 'status') return fault;
  return fault.status === 429 ? { type: 'status', status: 429, retryAfterMs: RETRY_DELAY_MS } : { type: 'status', status: 503 };
}

let server: FakeGeminiServer;
let dir: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-gemini-'));
  server = await startFakeGeminiServer({
    respond: (_body, ctx) => ({ text: answerMetaToolPrompt(ctx.key) }),
    latencyMs: (ctx) => 5 + (ctx.index % 5) * 4,
    faults: (ctx) => (ctx.attemptForKey === 1 ? geminiFault(ctx.key) : undefined),
  });
  // The registry reads these, as it would on a user's machine (the runner passes no Gemini settings).
  process.env.GEMINI_BASE_URL = server.url;
  process.env.GEMINI_API_KEY = KEY;
});

after(async () => {
  delete process.env.GEMINI_BASE_URL;
  delete process.env.GEMINI_API_KEY;
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

test('gemini: a MetaTool run through 429 RESOURCE_EXHAUSTED (RetryInfo honoured), 503 and latency ends with every sample scored', { skip: needsData('metatool') }, async () => {
  await runFaultedMetaTool({
    model: MODEL,
    seed: 6,
    samples: SAMPLES,
    dir,
    apiKey: KEY,
    requests: server.requests,
    faultFor: geminiFault,
    finishReason: { unified: 'stop', raw: 'STOP' },
    // RetryInfo asked for 0.300s (the backoff alone is ≤ 10 ms).
    minRetryGapMs: RETRY_DELAY_MS - 10,
    serverErrorStatus: 503,
  });
  assert.ok(server.requests.every((r) => r.credentialLength === KEY.length && r.path === '/v1beta/models/gemini-fake:generateContent'));
  // MetaTool runs at temperature 0: sent as generationConfig.
  assert.deepEqual((server.requests[0]?.body as { generationConfig?: unknown }).generationConfig, { temperature: 0 });
});

test('gemini: a tool-calling round trip — functionCall becomes a canonical ToolCall, and the follow-up carries functionCall + functionResponse on the wire', async () => {
  const tools: ToolSpec[] = [
    {
      name: 'get_weather',
      description: 'Current weather in a city',
      parameters: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { location: { type: 'string' } }, required: ['location'], additionalProperties: false },
    },
  ];
  const roundTrip = await startFakeGeminiServer({
    respond: (body) => {
      const parts = body.contents.at(-1)?.parts;
      const hasResponse = Array.isArray(parts) && parts.some((part: { functionResponse?: unknown }) => part.functionResponse !== undefined);
      return hasResponse ? { text: 'It is 18°C in Paris.' } : { functionCalls: [{ name: 'get_weather', args: { location: 'Paris' } }] };
    },
  });
  const provider = createGeminiProvider({ model: 'gemini-fake', baseURL: roundTrip.url, apiKey: KEY });
  try {
    const first: Message[] = [system('Use tools when useful.'), user('Weather in Paris?')];
    const signal = new AbortController().signal;
    const call = await provider.generate({ messages: first, tools, settings: { temperature: 0 } }, { signal });
    assert.deepEqual(call.toolCalls, [{ id: 'call_0', name: 'get_weather', arguments: { location: 'Paris' }, rawArguments: '{"location":"Paris"}' }]);
    assert.deepEqual(call.finishReason, { unified: 'tool-calls', raw: 'STOP' });
    assert.deepEqual(call.warnings.map((w) => w.details), ['schema keywords Gemini does not accept were dropped or rewritten: $schema, additionalProperties']);

    const followUp: Message[] = [...first, assistant(call.text, call.toolCalls), { role: 'tool', toolCallId: 'call_0', content: '{"temp_c":18}' }];
    const answer = await provider.generate({ messages: followUp, tools, settings: { temperature: 0 } }, { signal });
    assert.equal(answer.text, 'It is 18°C in Paris.');

    const declaration = { name: 'get_weather', description: 'Current weather in a city', parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } };
    assert.deepEqual(roundTrip.requests[1]?.body, {
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { location: 'Paris' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { name: 'get_weather', content: '{"temp_c":18}' } } }] },
      ],
      systemInstruction: { parts: [{ text: 'Use tools when useful.' }] },
      tools: [{ functionDeclarations: [declaration] }],
      generationConfig: { temperature: 0 },
    });
  } finally {
    await provider.close?.();
    await roundTrip.close();
  }
});
