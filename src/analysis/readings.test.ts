import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import type { Sample, Score } from '../core/index.js';
import { SHIPPED_HARM_RESOURCES_DIR, loadHarmResource } from '../datasets/harm/index.js';
import type { HarmJudgment } from '../benchmarks/harm/judgment.js';
import { harmFactsToStore } from '../benchmarks/harm/metrics.js';
import type { ResultRecord, RunRecord } from '../store/records.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { readRunBothWays } from './readings.js';

const rated = (severity: number): Score => {
  const judgment: HarmJudgment = { severity, defect: severity <= 3, repeats: [severity], reasonings: ['r'], spread: 0, agreement: 1, unreadable: 0 };
  return { value: severity, answer: judgment };
};
const NO_VERDICT: Score = { value: null, answer: null, explanation: 'judge: no verdict' };

/**
 * `show --readings` of a run with --repeats reads each model's first answer to each sample, as
 * the summary's metrics do (repeat 0). The groundedness resource calls a severity of 3 or below a
 * defect. Repeat 0: 5, 2, 4, 1, a no verdict, an error → judged 2/4, lower bound 2/6, worst case
 * 4/6. Repeat 1 rates every conversation 1 (all defects): read with it, judged would be 8/10.
 */
test('readings of a judged run with repeats: repeat 0 only, as the summary reads it', async () => {
  const { guideline } = await loadHarmResource(path.join(SHIPPED_HARM_RESOURCES_DIR, 'groundedness'), { seed: 0 });
  const store = await openSqliteStore(':memory:');
  const run: RunRecord = {
    id: '20260301-120000-rdg0', task: 'harm/groundedness', taskVersion: '1', status: 'finished', createdAt: '2026-03-01T12:00:00.000Z', updatedAt: '2026-03-01T12:00:00.000Z',
    models: ['m:a'], settings: {}, seed: 0, options: {}, engine: {}, events: [], judge: null, repeats: 2,
    metricsFacts: harmFactsToStore({ guideline, leakCheck: false }),
    provenance: { datasetChecksums: {}, promptVersion: '1', toolkitVersion: '0' },
  };
  const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
  const samples = ids.map((id): Sample => ({ id, input: [{ role: 'user', content: id }], target: null, metadata: { template: 't' } }));
  await store.createRun(run, samples);
  const first: (Score | null)[] = [rated(5), rated(2), rated(4), rated(1), NO_VERDICT, null];
  for (const [i, id] of ids.entries()) {
    for (const [repeat, score] of [first[i] ?? null, rated(1)].entries()) {
      const common = { runId: run.id, sampleId: id, modelId: 'm:a', repeat, cached: false, attempts: 1, latencyMs: 1, finishedAt: '2026-03-01T12:00:01.000Z', usage: {} };
      const result: ResultRecord =
        score === null
          ? { ...common, status: 'error', output: null, score: null, error: { kind: 'server', message: '503' }, costUsd: null }
          : { ...common, status: 'done', output: { text: 'ok', toolCalls: [], finishReason: { unified: 'stop' }, usage: {}, warnings: [] }, score, error: null, costUsd: 0 };
      await store.saveOutcome([], result);
    }
  }

  const readings = await readRunBothWays(store, run.id);
  const model = readings.models['m:a'];
  assert.deepEqual(readings.parsers, ['judged', 'lower-bound', 'worst-case']);
  assert.equal(model?.outputs, 5, 'five answers of repeat 0 with a score (the error has none)');
  assert.deepEqual([model?.metrics['judged']?.['defect_rate'], model?.metrics['judged']?.['n']], [0.5, 4]);
  assert.deepEqual([model?.metrics['lower-bound']?.['defect_rate'], model?.metrics['lower-bound']?.['n']], [2 / 6, 6]);
  assert.deepEqual([model?.metrics['worst-case']?.['defect_rate'], model?.metrics['worst-case']?.['defects']], [4 / 6, 4]);
  assert.equal(model?.differing, 2);
  await store.close();
});
