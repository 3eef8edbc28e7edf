import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { startRun } from '../../src/runner/run.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { useTinyLocalModel } from '../../src/testing/tiny-local-model.js';

/**
 * Judged summaries with a real in-process model as summarizer and judge: the tiny random-weight
 * GGUF the test writes, through node-llama-cpp. Its words mean nothing; what is checked is the
 * plumbing: each summary ends judged or an explained no verdict (never an error), the judge's
 * steps are stored with their labels, and structured output (a JSON-schema grammar) gives claims
 * in the documented shape.
 */
const tinyModel = useTinyLocalModel('assay-local-summaries-', 4096);

test('a tiny local model summarizes and judges: judged or no verdict, never an error; claims come back in their JSON shape', async () => {
  const { dir, id, provider: model } = tinyModel();
  mkdirSync(join(dir, 'articles'));
  writeFileSync(join(dir, 'articles', 'a.txt'), 'The bridge opened on Monday.');
  writeFileSync(join(dir, 'articles', 'b.txt'), 'The school has twelve rooms.');
  // Short rubrics of our own keep the tiny model's prompts small (same placeholders as the shipped ones).
  const rubrics: Record<string, string> = {};
  for (const [key, text] of Object.entries({ claims: 'Claims of: {summary}', verdicts: 'Article: {article}\nClaims: {claims}\nVerdicts?' })) {
    rubrics[key] = join(dir, `${key}.txt`);
    writeFileSync(rubrics[key] as string, text);
  }
  const store = await openSqliteStore(join(dir, 'local.db'));
  try {
    const summary = await startRun(
      {
        task: 'summaries/alignment',
        models: [id],
        seed: 1,
        options: { task: { articles: join(dir, 'articles'), coverageQuestions: 0 }, rubrics },
        settings: { maxTokens: 24 },
        dataDir: dir,
        engine: { concurrency: 1, timeoutMs: 120_000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: true },
        judge: { model: id, repeats: 1, format: 'json', maxParseRetries: 1, temperature: 0, maxTokens: 96 },
      },
      { store, providers: { [id]: model } },
    );
    const counts = summary.models[id]?.counts;
    assert.equal(counts?.done, 2);
    assert.equal(counts?.errors, 0);
    const metrics = summary.models[id]?.metrics;
    assert.equal(Number(metrics?.['judged']) + Number(metrics?.['no_verdict']), 2);
    for (const result of await store.results(summary.run)) {
      if (result.score?.value === null) assert.match(result.score.explanation ?? '', /^judge: no verdict — /, result.sampleId);
      const calls = await store.calls(summary.run, result.sampleId);
      const claims = calls.filter((c) => c.step?.startsWith('claims'));
      // An empty summary (the tiny model may write only white space) has no claims call: nothing to split.
      const empty = (result.output?.text ?? '').trim() === '';
      if (empty) assert.deepEqual([claims.length, result.score?.value, result.score?.explanation], [0, false, 'an empty summary (no text): no claim, not aligned'], result.sampleId);
      else assert.ok(claims.length >= 1, `${result.sampleId}: a claims call is stored`);
      for (const call of claims) {
        const text = call.output?.text ?? '';
        // The grammar holds the model to the schema unless the answer was cut off at the token limit.
        if (call.output?.finishReason.unified !== 'length') assert.ok(Array.isArray((JSON.parse(text) as { claims: unknown }).claims), text);
      }
    }
  } finally {
    await store.close();
  }
});
