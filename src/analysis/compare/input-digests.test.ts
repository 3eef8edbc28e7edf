import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Sample, Score } from '../../core/index.js';
import type { ResultRecord, RunRecord } from '../../store/records.js';
import { openSqliteStore } from '../../store/sqlite/sqlite-store.js';
import { inputDigest, storedForComparison } from './input-digests.js';

/**
 * `compareRuns` reads each run a page of samples at a time (`storedForComparison`) and keeps of
 * each result only what a comparison reads. Held here to what the whole reads give — every result
 * in the store's order and every sample's digest — over a run that crosses several pages, with two
 * models, repeats, errors, no verdicts and samples without a result.
 */

const SAMPLES = 700;
const MODELS = ['m:a', 'm:b'];
const REPEATS = 2;

/** Sample i, model m, repeat r: a score, null for an error, undefined for no result yet. */
function scoreOf(i: number, m: number, r: number): Score | null | undefined {
  if (i % 97 === 5) return undefined;
  if ((i + m + r) % 11 === 0) return null;
  return i % 13 === 0 ? { value: null, explanation: 'no verdict' } : { value: (i * 7 + m + r) % 3 !== 0 };
}

test('storedForComparison: every result (as a comparison reads it) and every digest, across pages, as the whole reads give them', async () => {
  const store = await openSqliteStore(':memory:');
  const run: RunRecord = {
    id: '20260301-120000-cmp0', task: 'cases', taskVersion: '1', status: 'interrupted', createdAt: '2026-03-01T12:00:00.000Z', updatedAt: '2026-03-01T12:00:00.000Z',
    models: MODELS, settings: {}, seed: 0, options: {}, engine: {}, events: [], judge: null, sampleCount: SAMPLES, repeats: REPEATS,
    provenance: { datasetChecksums: {}, promptVersion: '1', toolkitVersion: '0' },
  };
  const samples = Array.from({ length: SAMPLES }, (_, i): Sample => ({
    id: `s${String(SAMPLES - i).padStart(4, '0')}`, // ids not in position order
    input: i % 5 === 0 ? [{ role: 'system', content: 'sys' }, { role: 'user', content: `q${i}` }] : [{ role: 'user', content: `q${i % 50}` }],
    ...(i % 7 === 0 ? { tools: [{ name: 't', description: `tool ${i}`, parameters: { type: 'object' } }] } : {}),
    target: 'A',
    metadata: {},
  }));
  await store.createRun(run, samples);
  for (let i = 0; i < SAMPLES; i++) {
    for (const [m, modelId] of MODELS.entries()) {
      for (let r = 0; r < REPEATS; r++) {
        const score = scoreOf(i, m, r);
        if (score === undefined) continue;
        const common = { runId: run.id, sampleId: samples[i]?.id as string, modelId, repeat: r, cached: false, attempts: 1, latencyMs: 1, finishedAt: '2026-03-01T12:00:01.000Z', usage: { inputTokens: 3 } };
        const result: ResultRecord =
          score === null
            ? { ...common, status: 'error', output: null, score: null, error: { kind: 'server', message: '503' }, costUsd: null }
            : { ...common, status: 'done', output: { text: `answer ${i}`, toolCalls: [], finishReason: { unified: 'stop', raw: 'stop' }, usage: {}, warnings: [] }, score, error: null, costUsd: 0 };
        await store.saveOutcome([], result);
      }
    }
  }

  const read = await storedForComparison(store, run.id);

  const whole = await store.results(run.id, undefined, { outputs: false });
  assert.ok(whole.length > 2000, `${whole.length} results: more than one page's worth`);
  assert.deepEqual(
    read.results,
    whole.map((r) => ({ sampleId: r.sampleId, modelId: r.modelId, ...(r.repeat ? { repeat: r.repeat } : {}), status: r.status, score: r.score })),
    'the same results, in the same order, each with only what a comparison reads',
  );
  for (const r of read.results) assert.deepEqual(Object.keys(r).filter((k) => !['sampleId', 'modelId', 'repeat', 'status', 'score'].includes(k)), [], 'no output, usage or times held');
  const everySample = await store.loadSamples(run.id);
  assert.deepEqual([...read.digests.entries()], everySample.map((s) => [s.id, inputDigest(s)]));
  await store.close();
});
