import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { assistant, system, user, type Message, type ToolSpec } from '../../src/core/index.js';
import { createAnthropicProvider } from '../../src/models/providers/anthropic/index.js';
import { startFakeAnthropicServer, plannedFault, type FakeAnthropicServer } from '../../src/testing/fake-anthropic-server.js';
import type { Fault } from '../../src/testing/fault-plan.js';
import { runFaultedMetaTool } from '../../src/testing/faulted-metatool-run.js';
import { answerMetaToolPrompt } from '../../src/testing/metatool-answerer.js';
import { needsData } from '../../src/testing/test-data.js';

const KEY = 'sk-ant-e2e-0123456789abcdef';
const MODEL = 'anthropic:claude-fake';
const SAMPLES = 60;
const plan = { rate429: 0.15, rate500: 0.15, seed: 11 };

/**
 * The plan's faults in Anthropic's words: a 429 `rate_limit_error` asking for `retry-after: 1`
 * (whole seconds, as the API sends it) and a 529 `overloaded_error` instead of a 500.
 */
function anthropicFault(key: string): Fault | undefined {
  const fault = plannedFault(plan, key);
  if (fault?.type !== 'status') return fault;
  return fault.status === 429 ? { type: 'status', status: 429, retryAfter: '1' } : { type: 'status', status: 529 };
}

let server: FakeAnthropicServer;
let dir: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-anthropic-'));
  server = await startFakeAnthropicServer({
    respond: (_body, ctx) => ({ text: answerMetaToolPrompt(ctx.key) }),
    latencyMs: (ctx) => 5 + (ctx.index % 5) * 4,
    faults: (ctx) => (ctx.attemptForKey === 1 ? anthropicFault(ctx.key) : undefined),
  });
  // The registry reads these, as it would on a user's machine (the runner passes no Anthropic settings).
  process.env.ANTHROPIC_BASE_URL = server.url;
  process.env.ANTHROPIC_API_KEY = KEY;
});

after(async () => {
  delete process.env.ANTHROPIC_BASE_URL;
  delete process.env.ANTHROPIC_API_KEY;
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

test('anthropic: a MetaTool run through 429 rate_limit_error (retry-after honoured), 529 overloaded_error and latency ends with every sample scored', { skip: needsData('metatool') }, async () => {
  await runFaultedMetaTool({
    model: MODEL,
    seed: 5,
    samples: SAMPLES,
    dir,
    apiKey: KEY,
    requests: server.requests,
    faultFor: anthropicFault,
    finishReason: { unified: 'stop', raw: 'end_turn' },
    // The server asked for 1 s (retry-after in whole seconds, as the API sends it).
    minRetryGapMs: 990,
    serverErrorStatus: 529,
  });
  // Every request carried the key and the version header; none was refused as malformed.
  assert.ok(server.requests.every((r) => r.hadCredential && r.credentialLength === KEY.length && r.headers['anthropic-version'] === '2023-06-01'));
  assert.ok(server.requests.every((r) => r.outcome !== 'invalid'));
});

test('anthropic: a tool-calling round trip — tool_use becomes a canonical ToolCall, and the follow-up carries tool_use + tool_result on the wire', async () => {
  const tools: ToolSpec[] = [
    { name: 'get_weather', description: 'Current weather in a city', parameters: { type: 'object', properties: { location: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, required: ['location'] } },
  ];
  const roundTrip = await startFakeAnthropicServer({
    respond: (body) => {
      const last = body.messages.at(-1);
      const hasResult = Array.isArray(last?.content) && (last.content as { type?: string }[]).some((block) => block.type === 'tool_result');
      return hasResult ? { text: 'It is 18°C in Paris.' } : { text: 'Let me look that up.', toolUses: [{ id: 'toolu_01A', name: 'get_weather', input: { location: 'Paris', unit: 'celsius' } }] };
    },
  });
  const provider = createAnthropicProvider({ model: 'claude-fake', baseURL: roundTrip.url, apiKey: KEY });
  try {
    const first: Message[] = [system('Use tools when useful.'), user('Weather in Paris?')];
    const signal = new AbortController().signal;
    const call = await provider.generate({ messages: first, tools, settings: { temperature: 0 } }, { signal });
    assert.deepEqual(call.toolCalls, [{ id: 'toolu_01A', name: 'get_weather', arguments: { location: 'Paris', unit: 'celsius' }, rawArguments: '{"location":"Paris","unit":"celsius"}' }]);
    assert.deepEqual(call.finishReason, { unified: 'tool-calls', raw: 'tool_use' });
    assert.equal(call.text, 'Let me look that up.');

    const followUp: Message[] = [...first, assistant(call.text, call.toolCalls), { role: 'tool', toolCallId: 'toolu_01A', name: 'get_weather', content: '{"temp_c":18}' }];
    const answer = await provider.generate({ messages: followUp, tools, settings: { temperature: 0 } }, { signal });
    assert.equal(answer.text, 'It is 18°C in Paris.');
    assert.deepEqual(answer.finishReason, { unified: 'stop', raw: 'end_turn' });

    // What the server received, byte for byte as JSON.
    assert.deepEqual(roundTrip.requests[1]?.body, {
      model: 'claude-fake',
      max_tokens: 1024,
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me look that up.' },
            { type: 'tool_use', id: 'toolu_01A', name: 'get_weather', input: { location: 'Paris', unit: 'celsius' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01A', content: '{"temp_c":18}' }] },
      ],
      system: 'Use tools when useful.',
      tools: [{ name: 'get_weather', description: 'Current weather in a city', input_schema: tools[0]?.parameters }],
      temperature: 0,
    });
  } finally {
    await provider.close?.();
    await roundTrip.close();
  }
});
