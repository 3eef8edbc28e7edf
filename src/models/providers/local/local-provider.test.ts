import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ModelCallError, type GenerateRequest, type ToolSpec } from '../../../core/index.js';
import { startRun } from '../../../runner/run.js';
import { openSqliteStore } from '../../../store/sqlite/index.js';
import { needsData, testDataDir } from '../../../testing/test-data.js';
import { tempTinyGguf, type TinyGgufFile } from '../../../testing/tiny-gguf.js';
import { createLocalEmbedder } from './local-embedder.js';
import { createLocalProvider } from './local-provider.js';

// Real inference through node-llama-cpp on generated random-weight models (offline, ~1 s each to
// write). The model is random: these tests check the plumbing and that failures are recorded,
// not the quality of the answers.
type Temp = TinyGgufFile & { dispose(): Promise<void> };
let tiny: Temp;
let toolsTemplate: Temp;
const signal = new AbortController().signal;

before(async () => {
  // MetaTool prompts are ~2,600 byte tokens with this vocabulary: a 4096-token training context.
  tiny = await tempTinyGguf({ contextLength: 4096 });
  toolsTemplate = await tempTinyGguf({ template: 'chatml-tools' });
});
after(async () => {
  await tiny.dispose();
  await toolsTemplate.dispose();
});

const tools: ToolSpec[] = [
  {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string', maxLength: 12 }, days: { type: 'integer' } }, required: ['city', 'days'] },
  },
  { name: 'search_web', description: 'Search the web', parameters: { type: 'object', properties: { query: { type: 'string', maxLength: 20 } }, required: ['query'] } },
];

test('local: a real MetaTool run through startRun stores every sample with an output or a recorded error', { skip: needsData('metatool') }, async () => {
  const store = await openSqliteStore(':memory:');
  const modelId = `local:${tiny.path}`;
  try {
    const summary = await startRun(
      {
        task: 'metatool/similar',
        models: [modelId],
        seed: 1,
        options: { perTool: 1, limit: 5 },
        // The random model stops by itself only when sampling; cap it so the test stays short.
        settings: { temperature: 0.8, maxTokens: 48 },
        dataDir: testDataDir(),
        engine: { concurrency: 2, timeoutMs: 60_000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: false },
      },
      { store },
    );
    assert.equal(summary.status, 'finished');
    const results = await store.results(summary.run, modelId, { outputs: true });
    assert.equal(results.length, 5);
    for (const r of results) {
      assert.ok((r.status === 'done' && r.output !== null) || (r.status === 'error' && r.error !== null), `${r.sampleId}: ${r.status}`);
    }
    const done = results.filter((r) => r.status === 'done');
    assert.equal(done.length, 5, `errors: ${results.map((r) => r.error?.message).join(' | ')}`);
    for (const r of done) {
      assert.ok((r.usage.inputTokens ?? 0) > 2000, 'the prompt went through the template (byte tokens)');
      assert.ok((r.usage.outputTokens ?? 0) <= 48);
      assert.ok(['stop', 'length'].includes(r.output?.finishReason.unified ?? ''));
    }
  } finally {
    await store.close();
  }
});

test('local: structured output is JSON text; the parse rate across seeds is reported, a mismatch is a warning', async (t) => {
  const provider = await createLocalProvider({ model: tiny.path });
  const schema = {
    type: 'object',
    properties: { reasons: { type: 'string', maxLength: 40 }, verdict: { enum: ['pass', 'fail'] }, score: { type: 'integer', minimum: 0 } },
    required: ['reasons', 'verdict', 'score'],
  };
  let parsed = 0;
  let valid = 0;
  const seeds = 8;
  try {
    for (let seed = 0; seed < seeds; seed++) {
      const request: GenerateRequest = {
        messages: [{ role: 'user', content: 'Grade the answer.' }],
        responseFormat: { type: 'json', name: 'verdict', schema },
        settings: { temperature: 0.8, seed, maxTokens: 200 },
      };
      const result = await provider.generate(request, { signal });
      const warning = result.warnings.find((w) => w.feature === 'response-format');
      try {
        JSON.parse(result.text);
        parsed++;
      } catch {
        assert.ok(warning, `unparsable output must come with a warning: ${result.text}`);
      }
      if (!warning) valid++;
      assert.equal(result.toolCalls.length, 0);
    }
  } finally {
    await provider.close?.();
  }
  t.diagnostic(`structured output: JSON.parse ${parsed}/${seeds}, schema-valid ${valid}/${seeds}`);
  assert.ok(parsed >= seeds / 2, 'the grammar makes most outputs JSON');
});

test('local: grammar tool mode returns canonical ToolCalls named after an offered tool, or a recorded parseError', async (t) => {
  const provider = await createLocalProvider({ model: tiny.path });
  let valid = 0;
  const seeds = 8;
  try {
    for (let seed = 0; seed < seeds; seed++) {
      const result = await provider.generate({ messages: [{ role: 'user', content: 'Weather in Paris for 3 days?' }], tools, settings: { temperature: 0.8, seed, maxTokens: 200 } }, { signal });
      assert.equal(result.toolCalls.length, 1);
      const call = result.toolCalls[0];
      assert.ok(call);
      assert.equal(result.text, '');
      assert.ok(result.warnings.some((w) => w.feature === 'tool-choice'), 'grammar mode is recorded');
      if (call.parseError === undefined) {
        assert.ok(tools.some((tool) => tool.name === call.name), call.name);
        assert.equal(typeof call.arguments, 'object');
        assert.equal(result.finishReason.unified, 'tool-calls');
        valid++;
      } else {
        assert.equal(call.arguments, undefined);
        assert.ok(call.rawArguments.length > 0);
      }
    }
  } finally {
    await provider.close?.();
  }
  t.diagnostic(`grammar tool calls: schema-valid ${valid}/${seeds} (the rest recorded as parseError)`);
});

test('local: same seed, same output; parallel requests queue on one shared model; close is safe', async () => {
  const a = await createLocalProvider({ model: tiny.path });
  const b = await createLocalProvider({ model: tiny.path });
  const request: GenerateRequest = { messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hello' }], settings: { temperature: 0.8, seed: 7, maxTokens: 30 } };
  try {
    const [x, y, z] = await Promise.all([a.generate(request, { signal }), b.generate(request, { signal }), a.generate(request, { signal })]);
    assert.equal(x.text, y.text);
    assert.equal(x.text, z.text);
    assert.deepEqual(x.usage, z.usage);
    assert.equal((x.rawResponse as { threads: number }).threads, 1, 'one CPU thread by default');
    assert.equal(a.cacheable, false, 'a path can be overwritten by another model: never answered from the call cache');
    assert.equal(a.billed, false);
  } finally {
    await a.close?.();
    await a.close?.();
  }
  // b still works after a released the shared model.
  assert.ok((await b.generate(request, { signal })).finishReason.unified);
  await b.close?.();
});

test('local: native function calling is used when asked and never throws on a model that does not call', async () => {
  const provider = await createLocalProvider({ model: toolsTemplate.path, toolMode: 'native' });
  try {
    const result = await provider.generate({ messages: [{ role: 'user', content: 'Weather?' }], tools, settings: { temperature: 0.8, seed: 3, maxTokens: 40 } }, { signal });
    assert.ok(!result.warnings.some((w) => w.feature === 'tool-choice'));
    for (const call of result.toolCalls) assert.ok(call.parseError !== undefined || tools.some((tool) => tool.name === call.name));
  } finally {
    await provider.close?.();
  }
});

test('local: failures are ModelCallErrors (unreadable file, abort), never crashes', async () => {
  // A truncated model (a header that ends early). NB: a file that starts with "GGUF" followed by junk
  // makes node-llama-cpp 3.22.1's header reader hang (it trusts the counts); not tested here.
  const broken = path.join(path.dirname(tiny.path), 'broken.gguf');
  await writeFile(broken, (await readFile(tiny.path)).subarray(0, 5000));
  const provider = await createLocalProvider({ model: broken });
  const request: GenerateRequest = { messages: [{ role: 'user', content: 'Hi' }], settings: {} };
  await assert.rejects(provider.generate(request, { signal }), (e: unknown) => e instanceof ModelCallError && e.kind === 'bad-request' && e.message.includes(broken));
  await provider.close?.();

  const ok = await createLocalProvider({ model: tiny.path });
  const stop = new AbortController();
  stop.abort();
  await assert.rejects(ok.generate(request, { signal: stop.signal }), (e: unknown) => e instanceof ModelCallError && e.kind === 'aborted');
  await ok.close?.();
});

test('local: embeddings from a local model, one vector per text, deterministic', async () => {
  const embedder = await createLocalEmbedder({ model: tiny.path });
  try {
    const [a, b, again] = await embedder.embed(['The cat sat.', 'Revenue grew 12%.', 'The cat sat.']);
    assert.equal(a?.length, 64, 'the model width');
    assert.equal(b?.length, 64);
    assert.deepEqual(again, a);
    assert.ok(a?.every(Number.isFinite));
    assert.deepEqual(await embedder.embed([]), []);
  } finally {
    await embedder.close();
  }
});
