import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import Database from 'better-sqlite3';
import { findTask } from '../../src/benchmarks/registry.js';
import type { Sample, Score } from '../../src/core/index.js';
import type { GroundTruth } from '../../src/datasets/functionchat/index.js';
import { startRun } from '../../src/runner/run.js';
import type { RunSpec } from '../../src/runner/run-spec.js';
import { judgeMetadataOf } from '../../src/judges/judge-metadata.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { assay } from '../../src/testing/cli-harness.js';
import { startFakeOpenAIServer, type FakeAnswer, type FakeChatRequestBody, type FakeServer } from '../../src/testing/fake-openai-server.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';

/** Without the benchmark data these tests are skipped, saying how to get it. */
const skip = needsData('functionchat');

/**
 * `assay rescore` of a FunctionChat run runs its model-graded scorer again, the judge answered
 * from the call cache alone: exact matches are scored without the judge, every judged item is
 * judged again from the cached answers (so a stored verdict that disagrees with them is put
 * right), and an item whose judge prompt changed since the run (here: its stored answer was
 * edited, and the judge is shown the answer) keeps its stored judgment and is counted. No model is
 * called over the wire.
 */
const dataDir = testDataDir();
const LIMIT = 24;
const PASS_WORD = 'OK-ANSWER';

let server: FakeServer;
let dir: string;
const answers = new Map<string, FakeAnswer>();
const keyOf = (messages: readonly { content?: unknown }[]): string => `${messages.length}|${String(messages[messages.length - 1]?.content ?? '')}`;

before(async () => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), 'assay-fc-rescore-'));
  const prepared = await findTask('functionchat/dialog').prepare({ dataDir, seed: 0, options: { limit: LIMIT } });
  [...prepared.samples].forEach((sample: Sample, position) => {
    const truth = (sample.target as { groundTruth: GroundTruth }).groundTruth;
    const answer: FakeAnswer =
      truth.kind === 'call'
        ? { toolCalls: [{ name: truth.name, arguments: position % 2 === 0 ? truth.rawArguments : JSON.stringify({ note: position % 4 === 1 ? PASS_WORD : 'nope' }) }] }
        : { text: position % 3 === 0 ? '모름' : `네, ${PASS_WORD} 입니다.` };
    answers.set(keyOf(sample.input), answer);
  });
  server = await startFakeOpenAIServer({
    latencyMs: 1,
    respond: (body) => {
      if (body.model === 'judge') {
        const prompt = String(body.messages[body.messages.length - 1]?.content ?? '');
        const verdict = prompt.slice(prompt.indexOf('[Submission]')).includes(PASS_WORD) ? 'pass' : 'fail';
        return { text: `제출물을 검토했습니다.\n${verdict}` };
      }
      const answer = answers.get(keyOf(body.messages as { content?: unknown }[]));
      if (!answer) throw new Error('no planned answer');
      return answer;
    },
  });
});

after(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('rescore re-runs the judge from the cache: no model called, a stale verdict put right, a judgment whose prompt changed kept and counted', { skip }, async () => {
  const db = join(dir, 'run.db');
  const store = await openSqliteStore(db);
  const spec: RunSpec = {
    task: 'functionchat/dialog',
    models: ['openai:tested'],
    seed: 0,
    options: { limit: LIMIT },
    dataDir,
    engine: { concurrency: 4, timeoutMs: 5000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: true, openaiBaseURL: server.url },
    judge: { model: 'openai:judge', repeats: 1, format: 'text', maxParseRetries: 1, temperature: 0.1 },
  };
  const summary = await startRun(spec, { store });
  const original = new Map((await store.results(summary.run)).map((r) => [r.sampleId, r]));
  const judged = [...original.values()].filter((r) => judgeMetadataOf(r.score));
  const exact = [...original.values()].filter((r) => !judgeMetadataOf(r.score));
  assert.ok(exact.length > 0 && judged.length > 2, 'both exact matches and judged items');

  // A stored verdict the judge's cached answer disagrees with (as a hand edit or an older scorer would leave it).
  const stale = judged.find((r) => r.score?.value === true);
  assert.ok(stale?.score);
  const staleScore: Score = { ...stale.score, value: false };
  await store.updateScores(summary.run, 'openai:tested', new Map([[stale.sampleId, staleScore]]));
  await store.close();
  // A text item whose judge prompt changes: the judge is shown the answer, and the stored answer is edited.
  const edited = judged.find((r) => r.sampleId !== stale.sampleId && r.output?.toolCalls.length === 0);
  assert.ok(edited);
  const sqlite = new Database(db);
  sqlite.prepare("UPDATE results SET output = json_set(output, '$.text', ?) WHERE run_id = ? AND sample_id = ?").run('다시 쓴 답변', summary.run, edited.sampleId);
  sqlite.close();

  const requests = server.requests.length;
  const rescored = await assay(['rescore', summary.run, '--json', '--db', db]);
  assert.equal(rescored.code, 0, rescored.stderr);
  assert.equal(server.requests.length, requests, 'no model and no judge called over the wire');
  const out = JSON.parse(rescored.stdout) as { rescore: { outputs: number; changed: number; keptJudged?: number }; models: Record<string, { metrics: Record<string, unknown> }> };
  assert.deepEqual([out.rescore.outputs, out.rescore.changed, out.rescore.keptJudged], [LIMIT, 1, 1]);
  assert.deepEqual(out.models['openai:tested']?.metrics, summary.models['openai:tested']?.metrics, 'the judge-only metrics are the run\'s again');

  const reopened = await openSqliteStore(db);
  try {
    for (const result of await reopened.results(summary.run)) {
      const before = original.get(result.sampleId);
      // Every score, the stale one included, is byte for byte the one the run stored (the edited item kept its own).
      assert.equal(JSON.stringify(result.score), JSON.stringify(before?.score), result.sampleId);
    }
  } finally {
    await reopened.close();
  }

  // In text: the kept judgment is said.
  const text = await assay(['rescore', summary.run, '--db', db]);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout + text.stderr, /1 output\(s\) kept their stored judgment: a judge prompt they need is not in the call cache/);
  assert.equal(server.requests.length, requests);
});
