import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Metrics, ScoredSample, Task } from '../benchmarks/task.js';
import type { Sample } from '../core/index.js';
import type { ResultRecord, RunRecord } from '../store/records.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { SUMMARY_PAGE, summarizeRun } from './summary.js';

// A run larger than two of the summary's pages, stored in part: the summary read a page at a
// time must count every stored sample once, in order, and leave the unstored ones pending.
// Hand counts below are written for 4,100 stored samples: several pages and a part of one.
const STORED = 4_100;
assert.ok(STORED > 2 * SUMMARY_PAGE && STORED % SUMMARY_PAGE !== 0, 'the stored samples span pages and end inside one');
const SAMPLE_COUNT = STORED + 400;

const task: Task = {
  name: 'test/summary-pages',
  version: '1',
  description: 'summary pages',
  defaultSettings: {},
  prepare: async () => assert.fail('the summary does not prepare the task'),
  metrics(rows: Iterable<ScoredSample>): Metrics {
    let scored = 0, right = 0;
    const order: number[] = [];
    for (const { sample, score } of rows) {
      assert.equal('input' in sample, false, 'metrics see the facts of a sample, not its input');
      order.push(sample.metadata['i'] as number);
      if (typeof score?.value !== 'number') continue;
      scored++;
      right += score.value;
    }
    const inOrder = order.every((v, k) => k === 0 || v > (order[k - 1] as number));
    return { accuracy: right / scored, scored, in_order: inOrder ? 1 : 0 };
  },
};

const run: RunRecord = {
  id: '20260301-120000-pg01', task: task.name, taskVersion: '1', status: 'finished', createdAt: '2026-03-01T12:00:00.000Z', updatedAt: '2026-03-01T12:00:00.000Z',
  models: ['m:a', 'm:b'], settings: {}, seed: 1, options: {}, engine: {}, provenance: { datasetChecksums: {}, promptVersion: '1', toolkitVersion: '0' }, events: [], judge: null, sampleCount: SAMPLE_COUNT,
};
const sample = (i: number): Sample => ({ id: `x${i}`, input: [{ role: 'user', content: `q ${i}` }], target: null, metadata: { i } });
const result = (i: number, modelId: string, value: number | 'error'): ResultRecord => ({
  runId: run.id, sampleId: `x${i}`, modelId, cached: i % 10 === 0, attempts: 1, latencyMs: 1, finishedAt: '2026-03-01T12:00:01.000Z',
  ...(value === 'error'
    ? { status: 'error', output: null, score: null, error: { kind: 'server', message: '503' }, usage: {}, costUsd: null }
    : { status: 'done', output: { text: 'a', toolCalls: [], finishReason: { unified: 'stop', raw: 'stop' }, usage: {}, warnings: [] }, score: { value }, error: null, usage: { inputTokens: 10, outputTokens: 2 }, costUsd: 0.5 }),
});

test('the summary reads the store a page at a time and counts what a hand count gives: every stored sample once, the unstored pending', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'assay-summary-'));
  const store = await openSqliteStore(join(dir, 's.db'));
  try {
    const samples = Array.from({ length: STORED }, (_, i) => sample(i));
    await store.createRun(run, samples);
    const saved: ResultRecord[] = [];
    // m:a: right except every fourth below 4000, errors from 4000 to 4049, nothing after.
    for (let i = 0; i < 4050; i++) saved.push(result(i, 'm:a', i >= 4000 ? 'error' : i % 4 === 0 ? 0 : 1));
    // m:b: the even samples only, right when a multiple of 6.
    for (let i = 0; i < STORED; i += 2) saved.push(result(i, 'm:b', i % 6 === 0 ? 1 : 0));
    for (const r of saved) await store.saveOutcome([], r);

    const summary = await summarizeRun(store, run, task);
    const a = summary.models['m:a'];
    const b = summary.models['m:b'];
    assert.deepEqual(a?.metrics, { accuracy: 3000 / 4000, scored: 4000, in_order: 1 });
    assert.deepEqual([a?.counts.samples, a?.counts.done, a?.counts.errors, a?.counts.pending], [SAMPLE_COUNT, 4000, 50, SAMPLE_COUNT - 4050]);
    assert.deepEqual([a?.counts.cached, a?.counts.input_tokens, a?.counts.output_tokens, a?.counts.cost_usd], [405, 40_000, 8_000, null]);
    assert.deepEqual(a?.counts.errors_by_kind, { server: 50 });
    const evens = STORED / 2; // 2,050
    const sixes = Math.floor((STORED - 1) / 6) + 1; // 0, 6, …, 4098: 684
    assert.deepEqual(b?.metrics, { accuracy: sixes / evens, scored: evens, in_order: 1 });
    assert.deepEqual([b?.counts.done, b?.counts.errors, b?.counts.pending, b?.counts.cost_usd], [evens, 0, SAMPLE_COUNT - evens, evens * 0.5]);

  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
