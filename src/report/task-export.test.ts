import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findTask, registerTask } from '../benchmarks/registry.js';
import type { ResultRecord, RunRecord } from '../store/records.js';
import { needsData, testDataDir } from '../testing/test-data.js';
import { FUNCTIONCHAT_TSV_COLUMNS } from '../benchmarks/functionchat/report-tsv.js';
import { pairsOf } from './export.js';
import { exportPairsText } from './task-export.js';

const runOf = (task: string): RunRecord => ({
  id: 'r1',
  task,
  taskVersion: findTask(task).version,
  status: 'finished',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  models: ['replay:x'],
  settings: {},
  seed: 0,
  options: { limit: 2 },
  engine: {}, provenance: { datasetChecksums: {}, promptVersion: 'p', toolkitVersion: '0' }, events: [],
  judge: null,
});

const resultOf = (sampleId: string): ResultRecord => ({
  runId: 'r1',
  sampleId,
  modelId: 'replay:x',
  status: 'done',
  output: { text: 'no call', toolCalls: [], finishReason: { unified: 'stop' }, usage: {}, warnings: [] },
  score: { value: false, explanation: 'not an exact match: no tool call' },
  error: null,
  cached: false,
  attempts: 1,
  latencyMs: 1,
  usage: {},
  costUsd: 0,
  finishedAt: '2026-01-01T00:00:00.000Z',
});

const header = (text: string): string => text.split('\n')[0] ?? '';

test('export: a task that declares its own TSV layout gets it, whatever its name; other formats and tasks get assay\'s rows', { skip: needsData('functionchat') }, async () => {
  const task = findTask('functionchat/singlecall');
  const samples = Array.from((await task.prepare({ dataDir: testDataDir(), seed: 0, options: { limit: 2 } })).samples);
  const results = samples.map((s) => resultOf(s.id));
  const upstream = FUNCTIONCHAT_TSV_COLUMNS.join('\t');

  assert.equal(header(exportPairsText(runOf(task.name).task, pairsOf(samples, results), 'tsv')), upstream);
  assert.match(header(exportPairsText(runOf(task.name).task, pairsOf(samples, results), 'csv')), /^sample_id,task,model,prompt,/, 'only the format it declares');
  // The layout comes from the declaration, not from a "functionchat/" name.
  registerTask({ ...task, name: 'mine/tool-calls' });
  assert.equal(header(exportPairsText(runOf('mine/tool-calls').task, pairsOf(samples, results), 'tsv')), upstream);
  registerTask({ ...task, name: 'functionchat-like/plain', exportFormats: {} });
  assert.match(header(exportPairsText(runOf('functionchat-like/plain').task, pairsOf(samples, results), 'tsv')), /^sample_id\ttask\tmodel\tprompt\t/);
});
