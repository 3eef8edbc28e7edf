import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findTask } from '../benchmarks/registry.js';
import type { Sample, Score } from '../core/index.js';
import type { ResultRecord, RunRecord } from '../store/records.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { parsersInScores } from './score-parsers.js';

/** A finished run of `taskName` with `n` samples; `scoreOf(i)`: sample i's score, null for an error, undefined for no result. */
async function storedRun(taskName: string, n: number, scoreOf: (i: number) => Score | null | undefined, withCount: boolean) {
  const store = await openSqliteStore(':memory:');
  const task = findTask(taskName);
  const run: RunRecord = {
    id: `20260301-120000-sp${withCount ? 'c' : 'n'}`, task: task.name, taskVersion: task.version, status: 'finished',
    createdAt: '2026-03-01T12:00:00.000Z', updatedAt: '2026-03-01T12:00:00.000Z', models: ['m:a'], settings: {}, seed: 0, options: {},
    engine: {}, provenance: { datasetChecksums: {}, promptVersion: '1', toolkitVersion: '0' }, events: [], judge: null,
    ...(withCount ? { sampleCount: n } : {}),
  };
  await store.createRun(run, Array.from({ length: n }, (_, i): Sample => ({ id: `s${i}`, input: [{ role: 'user', content: `q${i}` }], target: null, metadata: {} })));
  for (let i = 0; i < n; i++) {
    const score = scoreOf(i);
    if (score === undefined) continue;
    const result: ResultRecord = {
      runId: run.id, sampleId: `s${i}`, modelId: 'm:a', cached: false, attempts: 1, latencyMs: 1, finishedAt: '2026-03-01T12:00:01.000Z',
      ...(score === null
        ? { status: 'error', output: null, score: null, error: { kind: 'server', message: '503' }, usage: {}, costUsd: null }
        : { status: 'done', output: { text: 't', toolCalls: [], finishReason: { unified: 'stop', raw: 'stop' }, usage: {}, warnings: [] }, score, error: null, usage: {}, costUsd: 0 }),
    };
    await store.saveOutcome([], result);
  }
  return { store, run };
}

const strict: Score = { value: true, answer: ['A'] };
const paper: Score = { value: false, answer: ['B'], metadata: { parser: 'paper' } };

test('parsersInScores counts every stored score of a MetaTool run, a page at a time: no parser named is strict; errors and samples without a result count nothing', async () => {
  // 1,000 samples (4 pages of 250): every 7th an error, else every 3rd paper; no result from 990 on.
  const scoreOf = (i: number): Score | null | undefined => (i >= 990 ? undefined : i % 7 === 0 ? null : i % 3 === 0 ? paper : strict);
  let paperCount = 0;
  let strictCount = 0;
  for (let i = 0; i < 990; i++) {
    const s = scoreOf(i);
    if (s === paper) paperCount++;
    else if (s === strict) strictCount++;
  }
  for (const withCount of [true, false]) {
    const { store, run } = await storedRun('metatool/similar', 1000, scoreOf, withCount);
    try {
      assert.deepEqual(Object.fromEntries(await parsersInScores(store, run)), { strict: strictCount, paper: paperCount }, `sampleCount ${withCount ? 'recorded' : 'not recorded'}`);
    } finally {
      await store.close();
    }
  }
  // Worked by hand for the first 21 samples: errors at 0, 7, 14; paper at 3, 6, 9, 12, 15, 18; strict the other 12.
  const { store, run } = await storedRun('metatool/similar', 21, scoreOf, true);
  try {
    assert.deepEqual(Object.fromEntries(await parsersInScores(store, run)), { strict: 12, paper: 6 });
  } finally {
    await store.close();
  }
});

test('parsersInScores is empty for a task that offers no answer parsers, whatever its scores say', async () => {
  const { store, run } = await storedRun('summaries/alignment', 5, () => paper, true);
  try {
    assert.equal((await parsersInScores(store, run)).size, 0);
  } finally {
    await store.close();
  }
});
