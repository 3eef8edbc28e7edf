import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startRun } from '../../src/runner/run.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { startFakeOpenAIServer } from '../../src/testing/fake-openai-server.js';
import { answerMetaToolPrompt } from '../../src/testing/metatool-answerer.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';

/** Without the benchmark data these tests are skipped, saying how to get it. */
const skip = needsData('metatool');

test('ollama: a MetaTool run reaches the server named by OLLAMA_HOST, sends no key (not even OPENAI_API_KEY), and is cached apart from openai:', { skip }, async () => {
  const server = await startFakeOpenAIServer({ respond: (_body, ctx) => ({ text: answerMetaToolPrompt(ctx.key) }) });
  const dir = mkdtempSync(join(tmpdir(), 'assay-ollama-'));
  const store = await openSqliteStore(join(dir, 'run.db'));
  process.env.OLLAMA_HOST = server.url.replace(/^http:\/\//, '').replace(/\/v1$/, ''); // host:port, as Ollama users write it
  process.env.OPENAI_API_KEY = 'sk-openai-never-for-ollama-0123';
  try {
    const spec = {
      task: 'metatool/reliability',
      models: ['ollama:llama-fake'],
      seed: 4,
      options: { perTool: 1, limit: 12 },
      dataDir: testDataDir(),
      engine: { concurrency: 4, timeoutMs: 15_000, retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1 }, cache: true, openaiBaseURL: server.url },
    };
    const summary = await startRun(spec, { store });
    assert.equal(summary.models['ollama:llama-fake']?.counts.done, 12);
    assert.equal(server.requests.length, 12);
    assert.ok(server.requests.every((r) => !r.hadCredential && (r.body as { model?: string }).model === 'llama-fake'));
    // The same model name under openai: is another model: its calls are not answered from ollama's cache.
    const openai = await startRun({ ...spec, models: ['openai:llama-fake'] }, { store });
    assert.equal(openai.models['openai:llama-fake']?.counts.cached, 0);
    assert.equal(server.requests.length, 24);
  } finally {
    delete process.env.OLLAMA_HOST;
    delete process.env.OPENAI_API_KEY;
    await store.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
