import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Metrics, MetricsFold, ScoredSample, Task } from '../benchmarks/task.js';
import type { Sample, Score } from '../core/index.js';
import type { ResultRecord, ReviewRecord, RunRecord } from '../store/records.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { keepsRows, SUMMARY_PAGE, summarizeRun } from './summary.js';

// Two forms of one task's metrics, written apart on purpose: `metrics` over every row at once,
// and a fold counting one row at a time. The summary must give the same bytes whichever it
// takes, with a judge's counts and repeats' agreement, reviews, and over several store pages.
const STORED = 2 * SUMMARY_PAGE + 300;

/** Hits among scored rows, the sum of values in run order (its rounding depends on the order), and errors. */
function metricsOfRows(rows: Iterable<ScoredSample>): Metrics {
  const all = [...rows];
  const scored = all.filter((r) => r.score !== undefined);
  const hits = scored.filter((r) => r.score?.value === true).length;
  const weights = scored.map((r) => r.sample.metadata['w'] as number);
  return { rate: scored.length === 0 ? null : hits / scored.length, weight: weights.reduce((a, b) => a + b, 0), errors: all.length - scored.length, scored: scored.length };
}

function metricsFold(): MetricsFold {
  let scored = 0, hits = 0, weight = 0, errors = 0;
  return {
    add(row) {
      if (row.score === undefined) {
        errors++;
        return;
      }
      scored++;
      if (row.score.value === true) hits++;
      weight += row.sample.metadata['w'] as number;
    },
    finish: () => ({ rate: scored === 0 ? null : hits / scored, weight, errors, scored }),
  };
}

let rowsRead = 0;
const byRows: Task = {
  name: 'test/summary-fold',
  version: '1',
  description: 'a task whose metrics count',
  defaultSettings: {},
  prepare: async () => assert.fail('the summary does not prepare the task'),
  metrics(rows) {
    rowsRead++;
    return metricsOfRows(rows);
  },
};
const folded: Task = { ...byRows, metricsFold };

const judge = { model: 'j:x', repeats: 3, maxParseRetries: 1, selfGrading: false } as unknown as NonNullable<RunRecord['judge']>;
const run: RunRecord = {
  id: '20260301-120000-fold', task: byRows.name, taskVersion: '1', status: 'finished', createdAt: '2026-03-01T12:00:00.000Z', updatedAt: '2026-03-01T12:00:00.000Z',
  models: ['m:a', 'm:b'], settings: {}, seed: 1, options: {}, engine: {}, provenance: { datasetChecksums: {}, promptVersion: '1', toolkitVersion: '0' }, events: [], judge, sampleCount: STORED + 50,
};
const sample = (i: number): Sample => ({ id: `x${i}`, input: [{ role: 'user', content: `q ${i}` }], target: null, metadata: { w: 0.1 * ((i * 7) % 13) } });
function score(i: number): Score {
  // Every third judged, with an agreement among its repeats; a judged no verdict now and then.
  const judged = i % 3 === 0 ? { judge: { model: 'j:x', calls: 3, inputTokens: 40 + (i % 5), outputTokens: 9, costUsd: 0.001 * (i % 4), agreement: (1 + (i % 3)) / 3 } } : undefined;
  return { value: i % 17 === 0 && judged ? null : i % 4 !== 1, ...(judged ? { metadata: judged } : {}) };
}
const result = (i: number, modelId: string): ResultRecord => ({
  runId: run.id, sampleId: `x${i}`, modelId, cached: false, attempts: 1, latencyMs: 1, finishedAt: '2026-03-01T12:00:01.000Z',
  ...(i % 29 === 0
    ? { status: 'error', output: null, score: null, error: { kind: 'server', message: '503' }, usage: {}, costUsd: null }
    : { status: 'done', output: { text: 'a', toolCalls: [], finishReason: { unified: 'stop', raw: 'stop' }, usage: {}, warnings: [] }, score: score(modelId === 'm:a' ? i : i + 1), error: null, usage: { inputTokens: 10, outputTokens: 2 }, costUsd: 0.5 }),
});
const review = (i: number, verdict: boolean): ReviewRecord => ({ runId: run.id, sampleId: `x${i}`, modelId: 'm:b', verdict, note: '', source: 'r.csv', reviewedAt: '2026-03-01T13:00:00.000Z' });

test('a task whose metrics fold is summarized to the same bytes as from its rows, reviews, judge and pages included; its rows are read only where reviews need them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'assay-summary-fold-'));
  const store = await openSqliteStore(join(dir, 's.db'));
  try {
    await store.createRun(run, Array.from({ length: STORED }, (_, i) => sample(i)));
    for (let i = 0; i < STORED; i++) for (const m of run.models) await store.saveOutcome([], result(i, m));

    rowsRead = 0;
    const fromRows = await summarizeRun(store, run, byRows);
    assert.equal(rowsRead, 2, 'the rows path reads every model’s rows');
    rowsRead = 0;
    const fromFold = await summarizeRun(store, run, folded);
    assert.equal(rowsRead, 0, 'the fold path keeps no rows for the metrics');
    assert.equal(JSON.stringify(fromFold), JSON.stringify(fromRows));
    // What the two forms agree on is the task's figures, not nothing: a hand count of m:a's rows
    // (its judge's counts and agreement, now counted as rows come, included).
    const done = Array.from({ length: STORED }, (_, i) => i).filter((i) => i % 29 !== 0);
    const judged = done.filter((i) => i % 3 === 0);
    assert.equal(fromFold.models['m:a']?.metrics['scored'], done.length);
    assert.equal(fromFold.models['m:a']?.metrics['judge_agreement'], judged.reduce((sum, i) => sum + (1 + (i % 3)) / 3, 0) / judged.length);
    const cost = judged.reduce((sum, i) => sum + 0.001 * (i % 4), 0);
    assert.deepEqual(fromFold.models['m:a']?.judge, {
      model: 'j:x', judged: judged.length, no_verdict: judged.filter((i) => i % 17 === 0).length, calls: 3 * judged.length,
      input_tokens: judged.reduce((sum, i) => sum + 40 + (i % 5), 0), output_tokens: 9 * judged.length, cost_usd: cost,
    });

    // Reviews of m:b: its rows are kept for the reviewed metrics (read through `metrics`), m:a's are not.
    await store.saveReviews([review(3, false), review(6, true), review(7, true)]);
    rowsRead = 0;
    const reviewedFromRows = await summarizeRun(store, run, byRows);
    rowsRead = 0;
    const reviewedFromFold = await summarizeRun(store, run, folded);
    assert.equal(rowsRead, 1, 'only the reviewed metrics read rows');
    assert.equal(JSON.stringify(reviewedFromFold), JSON.stringify(reviewedFromRows));
    assert.equal(reviewedFromFold.models['m:b']?.reviewed?.reviewed, 3);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a summary keeps every row only for what reads them all: metrics that do not fold, reviews, notes', () => {
  const notes = { summaryNotes: () => [] };
  assert.equal(keepsRows(folded, false), false);
  assert.equal(keepsRows(folded, true), true, 'the reviewed metrics read the rows');
  assert.equal(keepsRows({ ...folded, ...notes }, false), true, 'the notes read the rows');
  assert.equal(keepsRows(byRows, false), true, 'metrics without a fold read the rows');
});
