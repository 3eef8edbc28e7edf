import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { GenerateResult, Sample, TaskOptions } from '../core/index.js';
import { testDataDir } from '../testing/test-data.js';
import { packageRoot } from '../version.js';
import { declarationOf, undeclaredMetrics, unitAt } from './metric-declarations.js';
import { allTasks } from './registry.js';
import type { MetricDeclaration, MetricsContext, ScoredSample, Task } from './task.js';

/**
 * Every built-in task declares every metric its `metrics()` returns: each is prepared on real or
 * small made-up data, a few samples scored by its own scorer from made-up outputs (a text, a yes,
 * a call of the first tool offered) beside an error, under every answer reading it offers, and
 * the metrics' keys checked against its declarations.
 */
let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'assay-metric-declarations-'));
  for (const [file, text] of Object.entries({ 'news/a.txt': 'Bridge opens\n\nThe bridge opened on Monday.', 'sport/b.txt': 'Final won\n\nThe home team won.' })) {
    mkdirSync(join(dir, 'articles', file.split('/')[0] as string), { recursive: true });
    writeFileSync(join(dir, 'articles', file), text);
  }
});
after(() => rmSync(dir, { recursive: true, force: true }));

const output = (text: string, toolCalls: GenerateResult['toolCalls'] = []): GenerateResult => ({ text, toolCalls, finishReason: { unified: toolCalls.length > 0 ? 'tool-calls' : 'stop' }, usage: {}, warnings: [] });

function outputsFor(sample: Sample): GenerateResult[] {
  const tool = sample.tools?.[0];
  return [output('yes'), output('None'), output('I am not sure.'), ...(tool ? [output('', [{ id: 'c1', name: tool.name, arguments: {}, rawArguments: '{}' }])] : [])];
}

/** Options the task needs to prepare at all (its own files), or undefined when its data is not here. */
function optionsFor(task: Task): TaskOptions | undefined {
  if (task.name === 'summaries/alignment') return { task: { articles: join(dir, 'articles') } };
  if (task.name === 'cases') return { task: { file: join(packageRoot, 'examples', 'cases', 'support.yaml') } };
  if (task.name === 'quality/groundedness') return { task: { items: join(packageRoot, 'examples', 'groundedness.jsonl') } };
  if (task.dataset && !existsSync(join(testDataDir(), task.dataset))) return undefined;
  return {};
}

for (const task of allTasks) {
  test(`${task.name}: every metric it returns is declared, with a one-line meaning${task.metricsFold ? '; its fold gives the same metrics a row at a time' : ''}`, async (t) => {
    const declarations = task.metricDeclarations ?? [];
    assert.ok(declarations.length > 0, `${task.name} declares no metrics`);
    assert.equal(new Set(declarations.map((d) => d.name)).size, declarations.length, 'a metric declared twice');
    for (const d of [...declarations, ...declarations.flatMap((d) => d.parts ?? [])]) {
      assert.match(d.meaning, /^[^\n]{10,200}$/, `${d.name}: one line`);
      // A reading a metric is declared under is one the task offers.
      for (const reading of d.readings ?? []) assert.ok(task.answerParsers?.includes(reading), `${d.name}: --parser ${reading} is not a reading of ${task.name}`);
    }
    const base = optionsFor(task);
    if (base === undefined) {
      t.skip(`no ${task.dataset} data under ${testDataDir()} (set ASSAY_DATA_DIR)`);
      return;
    }
    for (const parser of task.answerParsers ?? [undefined]) {
      const options: TaskOptions = { ...base, limit: 8, ...(parser ? { parser } : {}) };
      const prepared = await task.prepare({ dataDir: testDataDir(), seed: 0, options });
      const samples = [...prepared.samples].slice(0, 8);
      assert.ok(samples.length > 0);
      const rows: ScoredSample[] = samples.flatMap((sample) => outputsFor(sample).map((out) => ({ sample, score: prepared.score(sample, out) })));
      rows.push({ sample: samples[0] as Sample, score: undefined });
      const scored = task.metrics(rows, { options, facts: prepared.metricsFacts });
      if (task.metricsFold) assertFoldsAsMetrics(task, rows, { options, facts: prepared.metricsFacts });
      assert.deepEqual(undeclaredMetrics(task.metricDeclarations, scored, parser), [], `${task.name}${parser ? ` --parser ${parser}` : ''}: metrics it does not declare`);
      // With nothing scored, a task that tells the reading from its scores (MetaTool) cannot: any declared metric may come back.
      assert.deepEqual(undeclaredMetrics(task.metricDeclarations, task.metrics([], { options, facts: prepared.metricsFacts })), [], `${task.name}: metrics of no samples it does not declare`);
    }
  });
}

/**
 * A task's fold fed the rows one at a time gives what its `metrics` gives over them all, to the
 * byte (the summary takes the fold, reviews and `--readings` the rows): on the rows, on them with
 * reviewers' verdicts as the reviewed summary writes them, and on none.
 */
function assertFoldsAsMetrics(task: Task, rows: readonly ScoredSample[], context: MetricsContext): void {
  const reviewed = rows.map((row, k): ScoredSample => (row.score && k % 3 === 0 ? { sample: row.sample, score: { ...row.score, value: k % 2 === 0 }, review: k % 2 === 0 } : row));
  for (const given of [rows, reviewed, []]) {
    const fold = task.metricsFold?.(context);
    assert.ok(fold);
    for (const row of given) fold.add(row);
    assert.equal(JSON.stringify(fold.finish()), JSON.stringify(task.metrics(given, context)), `${task.name}: the fold and the metrics differ`);
  }
}

test('a metric is found by its key, its interval and a breakdown part; anything else is undeclared', () => {
  const declarations: MetricDeclaration[] = [{ name: 'rate', meaning: 'a share of something', unit: 'share', direction: 'higher', interval: 'wilson' }];
  assert.equal(declarationOf(declarations, 'rate_ci95')?.name, 'rate');
  assert.equal(declarationOf(declarations, 'rate.by.part')?.name, 'rate');
  assert.deepEqual(undeclaredMetrics(declarations, { rate: 0.5, rate_ci95: null, top1: 0.2 }), ['top1']);
});

const TALLY: MetricDeclaration[] = [
  { name: 'rate', meaning: 'passes over n', unit: 'share', direction: 'higher', interval: 'wilson' },
  { name: 'n', meaning: 'the denominator', unit: 'count', direction: 'none', interval: 'none' },
];
const DECLARED: MetricDeclaration[] = [
  { name: 'by_group', meaning: 'the tally per group', unit: 'share', direction: 'higher', interval: 'none', parts: TALLY },
  { name: 'confusion', meaning: 'answers by outcome', unit: 'count', direction: 'none', interval: 'none' },
  { name: 'mean', meaning: 'a mean without interval', unit: 'mean', direction: 'none', interval: 'none' },
  { name: 'manual', meaning: 'paper reading only', unit: 'count', direction: 'none', interval: 'none', readings: ['paper'] },
];

test('a breakdown declared with parts: each figure of each category must be a part, its interval a part that has one', () => {
  const ok = { by_group: { a: { rate: 0.5, ci95: { low: 0.1, high: 0.9 }, rate_ci95: null, n: 2 } }, confusion: { tp: 1, fp: 0 }, mean: 2 };
  assert.deepEqual(undeclaredMetrics(DECLARED, ok), []);
  assert.deepEqual(undeclaredMetrics(DECLARED, { by_group: { a: { rate: 0.5, fail: 1, n_ci95: null } } }), ['by_group.a.fail', 'by_group.a.n_ci95']);
  // Categories of a breakdown without parts hold numbers; an object there is figures nothing declares.
  assert.deepEqual(undeclaredMetrics(DECLARED, { confusion: { tp: { n: 1 } } }), ['confusion.tp']);
  // An interval of a metric declared without one.
  assert.deepEqual(undeclaredMetrics(DECLARED, { mean: 2, mean_ci95: { low: 1, high: 3 } }), ['mean_ci95']);
});

test('a metric returned under a reading its declaration does not list is undeclared there', () => {
  assert.deepEqual(undeclaredMetrics(DECLARED, { manual: 2 }, 'paper'), []);
  assert.deepEqual(undeclaredMetrics(DECLARED, { manual: 2 }, 'strict'), ['manual']);
  assert.deepEqual(undeclaredMetrics(DECLARED, { manual: 2 }), []);
});

test('the unit of a number: the metric’s, or the part the deepest key names (a category named like a part is not that part)', () => {
  assert.equal(unitAt(DECLARED, ['by_group', 'n', 'rate']), 'share');
  assert.equal(unitAt(DECLARED, ['by_group', 'rate', 'n']), 'count');
  assert.equal(unitAt(DECLARED, ['by_group', 'a', 'ci95', 'low']), 'share');
  assert.equal(unitAt(DECLARED, ['by_group', 'a', 'other']), undefined);
  assert.equal(unitAt(DECLARED, ['confusion', 'tp']), 'count');
  assert.equal(unitAt(DECLARED, ['nothing']), undefined);
});
