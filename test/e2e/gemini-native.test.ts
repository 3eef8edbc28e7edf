import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { assistant, system, user, type Message, type ToolSpec } from '../../src/core/index.js';
import { createGeminiProvider } from '../../src/models/providers/gemini/index.js';
import { startRun } from '../../src/runner/run.js';
import type { RunSpec } from '../../src/runner/run-spec.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Fault } from '../../src/testing/fault-plan.js';
import { plannedFault, startFakeGeminiServer, type FakeGeminiServer } from '../../src/testing/fake-gemini-server.js';
import { answerMetaToolPrompt, shownTools } from '../../src/testing/metatool-answerer.js';
import { testDataDir } from '../../src/testing/test-data.js';

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

test('gemini: a MetaTool run through 429 RESOURCE_EXHAUSTED (RetryInfo honoured), 503 and latency ends with every sample scored', async () => {
  const store = await openSqliteStore(join(dir, 'run.db'));
  const spec: RunSpec = {
    task: 'metatool/similar',
    models: [MODEL],
    seed: 6,
    options: { perTool: 1, limit: SAMPLES },
    dataDir: testDataDir(),
    engine: { concurrency: 8, timeoutMs: 15_000, retry: { maxRetries: 3, baseDelayMs: 10, maxDelayMs: 100 }, cache: true },
  };
  const summary = await startRun(spec, { store });
  const counts = summary.models[MODEL]?.counts;
  assert.equal(counts?.done, SAMPLES);
  assert.equal(counts?.errors, 0);

  const samples = await store.loadSamples(summary.run);
  const results = await store.results(summary.run);
  let expectedCorrect = 0;
  let faulted = 0;
  for (const sample of samples) {
    const prompt = sample.input[0]?.content ?? '';
    const result = results.find((r) => r.sampleId === sample.id);
    assert.equal(result?.status, 'done');
    assert.equal(result?.output?.text, answerMetaToolPrompt(prompt), 'the stored output is what the model said, never an error body');
    assert.deepEqual(result?.output?.finishReason, { unified: 'stop', raw: 'STOP' });
    const named = shownTools(prompt).find((t) => answerMetaToolPrompt(prompt) === `I would use ${t} for this query.`);
    if (named === sample.target) expectedCorrect++;
    const calls = await store.calls(summary.run, sample.id);
    const fault = geminiFault(prompt);
    if (fault?.type === 'status') {
      faulted++;
      assert.equal(calls.length, 2, `${sample.id}: one faulted attempt, then one answered`);
      assert.equal(calls[0]?.error?.kind, fault.status === 429 ? 'rate-limit' : 'server');
      assert.equal(calls[1]?.error, null);
      if (fault.status === 429) {
        // RetryInfo asked for 0.300s: the retry came no sooner (the backoff alone is ≤ 10 ms).
        const attempts = server.requests.filter((r) => r.key === prompt);
        assert.ok((attempts[1]?.receivedAt ?? 0) - (attempts[0]?.finishedAt ?? 0) >= RETRY_DELAY_MS - 10, `${sample.id}: retryDelay honoured`);
      }
    } else {
      assert.equal(calls.length, 1);
    }
  }
  assert.ok(faulted >= 10, `the plan hit ${faulted} samples`);
  assert.equal(summary.models[MODEL]?.metrics['csr'], expectedCorrect / SAMPLES);
  assert.ok(server.requests.some((r) => r.status === 429) && server.requests.some((r) => r.status === 503));
  assert.ok(server.requests.every((r) => r.credentialLength === KEY.length && r.path === '/v1beta/models/gemini-fake:generateContent'));
  // MetaTool runs at temperature 0: sent as generationConfig.
  assert.deepEqual((server.requests[0]?.body as { generationConfig?: unknown }).generationConfig, { temperature: 0 });
  await store.close();
  for (const file of readdirSync(dir)) assert.ok(!readFileSync(join(dir, file)).includes(KEY), `${file} must not contain the key`);
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
