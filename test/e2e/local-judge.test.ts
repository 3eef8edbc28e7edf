import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { findTask } from '../../src/benchmarks/registry.js';
import { judgeMetadataOf } from '../../src/judges/judge-metadata.js';
import { startRun } from '../../src/runner/run.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';
import { useTinyLocalModel } from '../../src/testing/tiny-local-model.js';

/** Without the benchmark data these tests are skipped, saying how to get it. */
const skip = needsData('functionchat');

/**
 * FunctionChat graded by a real in-process judge: the tiny random-weight GGUF the test writes,
 * through node-llama-cpp, in JSON-verdict mode (structured output → a JSON-schema grammar). The
 * model is random, so the verdicts mean nothing; what is checked is the plumbing: every judged item
 * ends graded (pass, fail or an explained no verdict — never an error), every judge call is stored
 * with the schema it was asked for, and the grammar gives parseable JSON verdicts.
 */
const dataDir = testDataDir();
const LIMIT = 5;
const tinyModel = useTinyLocalModel('assay-local-judge-', 8192);

test('a tiny local model judges FunctionChat single calls through the structured-output path', { skip }, async (t) => {
  const { dir, id: judgeId, provider: judge } = tinyModel();
  // The model under test (replayed) calls a function that is not offered: never an exact match.
  const prepared = await findTask('functionchat/singlecall').prepare({ dataDir, seed: 0, options: { limit: LIMIT } });
  const replay = join(dir, 'replay.jsonl');
  writeFileSync(
    replay,
    [...prepared.samples].map((s) => JSON.stringify({ id: s.id, message: { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'notOffered', arguments: '{}' } }] } })).join('\n') + '\n',
  );
  // A short rubric of our own keeps the byte-level prompt of the tiny model small.
  const rubric = join(dir, 'call-rubric.txt');
  writeFileSync(rubric, 'Tools: {tools}\nQuery: {query}\nExpected: {ground_truth}\nAlso accepted: {acceptable_arguments}\nAnswer: {response}\nIs the answer right? Reply pass or fail.\n');

  const store = await openSqliteStore(join(dir, 'local-judge.db'));
  const summary = await startRun(
    {
      task: 'functionchat/singlecall',
      models: [`replay:${replay}`],
      seed: 3,
      options: { limit: LIMIT, rubrics: { call: rubric } },
      dataDir,
      engine: { concurrency: 2, timeoutMs: 60_000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: true },
      judge: { model: judgeId, repeats: 2, format: 'json', maxParseRetries: 1, temperature: 0.1, maxTokens: 160 },
    },
    { store, providers: { [judgeId]: judge } },
  );
  const model = summary.models[`replay:${replay}`];
  assert.equal(model?.counts.done, LIMIT);
  assert.equal(model?.counts.errors, 0);
  assert.equal(model?.judge?.judged, LIMIT);

  let parsed = 0;
  let judgeCalls = 0;
  for (const result of await store.results(summary.run)) {
    const judgment = judgeMetadataOf(result.score);
    assert.ok(judgment, result.sampleId);
    assert.equal(judgment.votes.length, 2);
    assert.equal(judgment.rubric, 'custom/call');
    if (result.score?.value === null) assert.match(result.score.explanation ?? '', /no verdict/);
    const calls = (await store.calls(summary.run, result.sampleId)).filter((c) => c.role === 'judge');
    assert.ok(calls.length >= 2, 'at least one call per repeat');
    for (const call of calls) {
      judgeCalls++;
      assert.equal(call.actor, judgeId);
      assert.equal((call.request as { responseFormat?: { name?: string } }).responseFormat?.name, 'verdict');
      const text = call.output?.text ?? '';
      try {
        const verdict = (JSON.parse(text) as { verdict?: unknown }).verdict;
        if (verdict === 'pass' || verdict === 'fail') parsed++;
      } catch {
        // Cut off at maxTokens: recorded, re-asked, counted as unreadable — which is what the votes say.
      }
    }
  }
  // The grammar holds the random model to the verdict schema; only a reply cut at maxTokens fails to parse.
  t.diagnostic(`judge replies that parsed as JSON verdicts: ${parsed}/${judgeCalls}; verdicts pass ${Number(model?.metrics['pass'])}, no verdict ${Number(model?.metrics['no_verdict'])} of ${LIMIT}`);
  assert.ok(parsed > 0, `no judge reply parsed as a JSON verdict (of ${judgeCalls})`);
  await store.close();
});
