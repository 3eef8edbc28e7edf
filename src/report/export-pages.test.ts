import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findTask, registerTask } from '../benchmarks/registry.js';
import type { Sample, Score } from '../core/index.js';
import type { ResultRecord, RunRecord } from '../store/records.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import type { Store } from '../store/store.js';
import { EXPORT_DETAILS } from './export-from-report.js';
import { exportHeadOf, exportPairPages } from './export-pages.js';
import type { ExportFormat } from './export.js';
import { buildRunReport } from './run-report.js';
import { exportReportText, writeExportParts } from './task-export.js';

/**
 * `assay export` writes its rows a page of samples at a time (`exportPairPages`, `writeExportParts`);
 * what it wrote before, and still must, is the text of the run's report built with every detail
 * (`exportReportText`): the two are compared byte for byte over runs that cross several pages.
 */

// Runs of `cases` (its own columns after assay's), and a task with a layout of its own for TSV and JSONL (as FunctionChat's TSV), row by row.
registerTask({
  ...findTask('cases'),
  name: 'test/own-layout',
  exportFormats: {
    tsv: (pairs) => ({ columns: ['id', 'who', 'said'], rows: pairs.map(({ sample, result }) => [sample?.id ?? '', result.modelId, result.output?.text ?? `error ${result.error?.kind ?? ''}`]) }),
    jsonl: (pairs) => ({ columns: ['id', 'ok'], rows: pairs.map(({ result }) => [result.sampleId, result.status === 'done']) }),
  },
});

interface Plan {
  readonly task: string;
  readonly samples: number;
  readonly models: readonly string[];
  readonly repeats: number;
  readonly modified?: boolean;
  /** Sample i, model m, repeat r: its score, null for an error, undefined for no result (pending). */
  readonly score: (i: number, m: number, r: number) => Score | null | undefined;
}

let runs = 0;
async function storePlan(store: Store, plan: Plan): Promise<RunRecord> {
  const task = findTask(plan.task);
  const run: RunRecord = {
    id: `20260301-120000-ex${String(runs++).padStart(2, '0')}`, task: task.name, taskVersion: task.version, status: 'interrupted',
    createdAt: '2026-03-01T12:00:00.000Z', updatedAt: '2026-03-01T12:00:00.000Z', models: [...plan.models], settings: {}, seed: 0, options: {},
    engine: {}, events: [], judge: null, sampleCount: plan.samples, ...(plan.repeats > 1 ? { repeats: plan.repeats } : {}),
    provenance: { datasetChecksums: {}, promptVersion: '1', toolkitVersion: '0', ...(plan.modified ? { modifiedData: [{ file: 'metatool/x.csv', pinned: 'aa', actual: 'bb' }] } : {}) },
  };
  const samples = Array.from({ length: plan.samples }, (_, i): Sample => ({
    id: `s${String(i).padStart(4, '0')}`,
    input: i % 5 === 0 ? [{ role: 'system', content: 'sys' }, { role: 'user', content: `q${i} "quoted", =1+1` }] : [{ role: 'user', content: `q${i}\nline two` }],
    target: i % 3 === 0 ? ['A', 'B'] : 'A',
    metadata: { candidates: ['A', 'B', `C${i}`], query: `q${i}` },
  }));
  await store.createRun(run, samples);
  for (let i = 0; i < plan.samples; i++) {
    for (const [m, modelId] of plan.models.entries()) {
      for (let r = 0; r < plan.repeats; r++) {
        const score = plan.score(i, m, r);
        if (score === undefined) continue;
        const result: ResultRecord = {
          runId: run.id, sampleId: samples[i]?.id as string, modelId, repeat: r, cached: false, attempts: 1, latencyMs: 1, finishedAt: '2026-03-01T12:00:01.000Z',
          ...(score === null
            ? { status: 'error', output: null, score: null, error: { kind: 'server', message: `503 on ${i}` }, usage: {}, costUsd: null }
            : { status: 'done', output: { text: `I pick A, "${i}"`, toolCalls: i % 4 === 0 ? [{ id: 'c', name: 'A', arguments: {}, rawArguments: '{"x":1}' }] : [], finishReason: { unified: 'stop', raw: 'stop' }, usage: {}, warnings: [] }, score, error: null, usage: {}, costUsd: 0 }),
        };
        await store.saveOutcome([], result);
      }
    }
  }
  return run;
}

async function paged(store: Store, run: RunRecord, format: ExportFormat, model?: string): Promise<{ text: string; rows: number }> {
  let text = '';
  const rows = await writeExportParts(exportHeadOf(run, model), exportPairPages(store, run, model), format, (part) => {
    text += part;
  });
  return { text, rows };
}

const verdict = (i: number, m: number, r: number): Score | null | undefined => {
  const n = i + 7 * m + 13 * r;
  if (n % 17 === 0) return undefined;
  if (n % 11 === 0) return null;
  if (n % 9 === 0) return { value: null, answer: null, explanation: 'no verdict' };
  return { value: n % 2 === 0, answer: ['A'], explanation: n % 3 === 0 ? 'why, "quoted"' : undefined, metadata: { parser: 'strict' } } as Score;
};

const plans: readonly (readonly [string, Plan])[] = [
  ['one model, 600 samples (3 pages), errors, no verdicts and pending rows', { task: 'cases', samples: 600, models: ['m:a'], repeats: 1, score: verdict }],
  ['two models and 3 repeats, 130 samples (pages of 41), on modified data', { task: 'cases', samples: 130, models: ['m:a', 'm:b'], repeats: 3, modified: true, score: verdict }],
  ['a task with its own layouts, two models, 300 samples', { task: 'test/own-layout', samples: 300, models: ['m:a', 'm:b'], repeats: 1, score: verdict }],
  ['no result at all', { task: 'cases', samples: 40, models: ['m:a'], repeats: 2, score: () => undefined }],
];

for (const [name, plan] of plans) {
  test(`export by pages reads as the report's export, byte for byte: ${name}`, async () => {
    const store = await openSqliteStore(':memory:');
    try {
      const run = await storePlan(store, plan);
      const report = await buildRunReport(store, run.id, EXPORT_DETAILS);
      for (const format of ['jsonl', 'csv', 'tsv'] as const) {
        for (const model of [undefined, ...plan.models]) {
          const whole = exportReportText(report, format, model);
          const parts = await paged(store, run, format, model);
          assert.equal(parts.text, whole.text, `${format}, ${model ?? 'every model'}`);
          assert.equal(parts.rows, whole.rows);
        }
      }
      assert.throws(() => exportHeadOf(run, 'm:nope'), /has no model m:nope; it has m:a/);
    } finally {
      await store.close();
    }
  });
}

test('the pages cover the run: as many rows as stored results, in order', async () => {
  const store = await openSqliteStore(':memory:');
  try {
    const run = await storePlan(store, plans[0]?.[1] as Plan);
    let expected = 0;
    for (let i = 0; i < 600; i++) if (verdict(i, 0, 0) !== undefined) expected++;
    const { text, rows } = await paged(store, run, 'jsonl');
    assert.equal(rows, expected);
    const ids = text.trim().split('\n').map((line) => (JSON.parse(line) as { sample_id: string }).sample_id);
    assert.deepEqual(ids, [...ids].sort());
    assert.equal(ids.length, expected);
  } finally {
    await store.close();
  }
});
