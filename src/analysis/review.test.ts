import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { harmFactsToStore } from '../benchmarks/harm/metrics.js';
import { findTask } from '../benchmarks/registry.js';
import type { Sample, Score, TaskOptions } from '../core/index.js';
import type { Guideline } from '../datasets/harm/index.js';
import { buildRunReport } from '../report/run-report.js';
import { ROW_FLAGS } from '../report/sample-rows.js';
import type { ResultRecord, RunRecord } from '../store/records.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import type { Store } from '../store/store.js';
import { applyReviewFile } from './review.js';
import { summarizeRun } from './summary.js';

/**
 * Human reviews applied to each task kind whose metrics read the judge's grading rather than a
 * boolean value (groundedness' 1–5 grade, a summary's claims, a harm conversation's severity): a
 * run is stored with scores shaped as each task stores them, a reviewer's CSV is applied through
 * `applyReviewFile`, and the reviewed metrics, the count of changed verdicts and the report's
 * "changed by review" flags are checked against numbers worked out by hand in the comments.
 * (MetaTool's readings of the answer are in metatool/metrics.test.ts; FunctionChat's judged
 * reviews through the CLI in test/e2e/functionchat-judge.test.ts.)
 */
let dir: string;
let store: Store;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-review-'));
  store = await openSqliteStore(join(dir, 'r.db'));
});
after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const MODEL = 'given:answers';
let runCount = 0;

/** Stores a finished one-model run of `taskName` with these scores (null: the sample ended in error). */
async function storeRun(taskName: string, options: TaskOptions, scores: readonly (readonly [string, Score | null, Record<string, unknown>?])[], metricsFacts?: unknown): Promise<RunRecord> {
  const task = findTask(taskName);
  const run: RunRecord = {
    id: `20260301-120000-rv${String(runCount++).padStart(2, '0')}`, task: task.name, taskVersion: task.version, status: 'finished',
    createdAt: '2026-03-01T12:00:00.000Z', updatedAt: '2026-03-01T12:00:00.000Z', models: [MODEL], settings: {}, seed: 0, options,
    engine: {}, provenance: { datasetChecksums: {}, promptVersion: '1', toolkitVersion: '0' }, events: [],
    judge: { model: 'openai:judge', selfGrading: false, repeats: 1, format: 'json', maxParseRetries: 0, temperature: 0 },
    sampleCount: scores.length, ...(metricsFacts !== undefined ? { metricsFacts } : {}),
  };
  const samples: Sample[] = scores.map(([id, , metadata]) => ({ id, input: [{ role: 'user', content: id }], target: null, metadata: metadata ?? {} }));
  await store.createRun(run, samples);
  for (const [id, score] of scores) {
    const result: ResultRecord = {
      runId: run.id, sampleId: id, modelId: MODEL, cached: false, attempts: 1, latencyMs: 1, finishedAt: '2026-03-01T12:00:01.000Z',
      ...(score === null
        ? { status: 'error', output: null, score: null, error: { kind: 'judge-server', message: '503' }, usage: {}, costUsd: null }
        : { status: 'done', output: { text: 'a', toolCalls: [], finishReason: { unified: 'stop', raw: 'stop' }, usage: {}, warnings: [] }, score, error: null, usage: {}, costUsd: 0 }),
    };
    await store.saveOutcome([], result);
  }
  return run;
}

/** Applies `csv` to the run; the outcome, the reviewed summary of its model, and which samples the report flags as changed by review. */
async function review(run: RunRecord, csv: string) {
  const file = join(dir, `${run.id}.csv`);
  writeFileSync(file, csv);
  const outcome = await applyReviewFile(store, run.id, file);
  const model = (await summarizeRun(store, run, findTask(run.task))).models[MODEL];
  const report = await buildRunReport(store, run.id);
  const changedIds = report.index.rows.flags.flatMap((flags, row) => ((flags & ROW_FLAGS.changedByReview) !== 0 ? [report.index.ids[report.index.rows.sample[row] as number]] : []));
  return { outcome, model, changedIds, report };
}

describe('reviews change the reviewed metrics of every task kind that reads its judge\'s grading', () => {
  it('groundedness: a reviewed fail is a defect, a reviewed pass is not; overruled grades leave the mean and distribution', async () => {
    const grade = (score: number, spread = 0): Score => ({ value: score, answer: { score, scores: [score], reasonings: ['r'], spread }, explanation: `grounded ${score}/5` });
    const run = await storeRun('quality/groundedness', { task: { items: '/x/items.jsonl', threshold: 3 } }, [
      ['g1', grade(5)],
      ['g2', grade(4, 1)],
      ['g3', grade(2)],
      ['g4', grade(1)],
      ['g5', { value: null, answer: null, explanation: 'judge: no verdict — unreadable' }],
      ['g6', null],
    ]);
    // The judge: defects g3 (2) and g4 (1) of 4 graded (threshold 3) = 0.5.
    // Reviews: g1 fail (the judge passed it: changed), g3 fail (agrees), g4 pass (changed), g5 fail (a no verdict decided: changed).
    const { outcome, model, changedIds } = await review(run, 'item,verdict,note\ng1,fail,invented\ng3,fail,\ng4,pass,fine\ng5,fail,\n');
    assert.equal(model?.metrics['defect_rate'], 0.5);
    assert.deepEqual([outcome.applied, outcome.changed, model?.reviewed?.changed], [4, 3, 3]);
    assert.deepEqual(changedIds, ['g1', 'g4', 'g5']);
    const reviewed = model?.reviewed?.metrics;
    // Decided: g1 fail, g2 pass (4, stands), g3 fail (2, stands), g4 pass, g5 fail → 3 defects of 5.
    // The grades standing: g2's 4 and g3's 2 → mean 3, distribution {2: 1, 4: 1}, mean spread (1 + 0) / 2.
    assert.equal(reviewed?.['defect_rate'], 3 / 5);
    assert.equal(reviewed?.['mean_score'], 3);
    assert.deepEqual(reviewed?.['distribution'], { '2': 1, '4': 1 });
    assert.equal(reviewed?.['mean_spread'], 0.5);
    assert.deepEqual([reviewed?.['graded'], reviewed?.['no_verdict'], reviewed?.['n'], reviewed?.['errors']], [5, 0, 5, 1]);
  });

  it('summaries: a reviewed pass is aligned, a reviewed fail is not; overruled claims leave the claim figures', async () => {
    const judged = (verdicts: readonly ('yes' | 'no' | 'idk')[]): Score => ({
      value: verdicts.every((v) => v !== 'no'),
      answer: { claims: verdicts.map((verdict, i) => ({ claim: `c${i}`, verdict, reason: 'r' })) },
    });
    const run = await storeRun('summaries/alignment', { task: { articles: '/x/articles' } }, [
      ['s1', judged(['yes', 'yes'])],
      ['s2', judged(['yes', 'no'])],
      ['s3', judged([])],
      ['s4', { value: null, answer: null, explanation: 'judge: no verdict — unreadable' }],
    ]);
    // The judge: aligned s1 of 3 judged (s3, a summary with no claim, fails alignment: issue 25).
    // Reviews: s1 fail (changed), s2 fail (agrees), s4 pass (a no verdict decided: changed).
    const { outcome, model, changedIds } = await review(run, 'item,verdict\ns1,fail\ns2,fail\ns4,pass\n');
    assert.equal(model?.metrics['alignment'], 1 / 3);
    assert.deepEqual([outcome.changed, model?.reviewed?.changed], [2, 2]);
    assert.deepEqual(changedIds, ['s1', 's4']);
    const reviewed = model?.reviewed?.metrics;
    // Decided: s1 fail, s2 fail (stands), s3 fail (no claim: stands), s4 pass → aligned 1 of 4.
    // Claims standing: s2's yes and no, s3's none → support 1/2, richness (2 + 0) / 2, one empty summary.
    assert.equal(reviewed?.['alignment'], 0.25);
    assert.equal(reviewed?.['claim_support'], 0.5);
    assert.equal(reviewed?.['richness'], 1);
    assert.deepEqual([reviewed?.['empty_summaries'], reviewed?.['judged'], reviewed?.['no_verdict'], reviewed?.['n']], [1, 4, 0, 4]);
  });

  it('harm: a reviewed fail is a defect, a reviewed pass is not, overall and per template; overruled severities leave the distribution', async () => {
    const guideline: Guideline = {
      harmDefinition: 'a leak',
      scale: [1, 2, 3, 4].map((severity) => ({ severity, label: `level ${severity}`, example: 'e' })),
      defectThreshold: 4,
      defectWhen: 'at-least',
    };
    const conversation = (template: string, leak: boolean) => ({ conversation: { template, turns: 2, endedBy: 'user', leak } });
    const judged = (severity: number, template: string, leak: boolean): Score => ({
      value: severity,
      answer: { severity, defect: severity >= 4, repeats: [severity], reasonings: ['r'], spread: 0, agreement: 1, unreadable: 0 },
      metadata: conversation(template, leak),
    });
    const run = await storeRun(
      'harm/system-prompt-leakage',
      { task: {} },
      [
        ['h1', judged(1, 'direct', false)],
        ['h2', judged(4, 'direct', true)],
        ['h3', judged(2, 'pretext', false)],
        ['h4', { value: null, answer: null, explanation: 'judge: no verdict — unreadable', metadata: conversation('pretext', false) }],
      ],
      harmFactsToStore({ guideline, leakCheck: true }),
    );
    // The judge: one defect (h2, severity 4) of 3 judged.
    // Reviews: h1 fail (changed), h2 fail (agrees), h4 pass (a no verdict decided: changed).
    const { outcome, model, changedIds } = await review(run, 'item,verdict\nh1,fail\nh2,fail\nh4,pass\n');
    assert.equal(model?.metrics['defect_rate'], 1 / 3);
    assert.deepEqual([outcome.changed, model?.reviewed?.changed], [2, 2]);
    assert.deepEqual(changedIds, ['h1', 'h4']);
    const reviewed = model?.reviewed?.metrics;
    // Decided: h1 defect, h2 defect (4, stands), h3 no defect (2, stands), h4 no defect → 2 of 4;
    // direct (h1, h2) 2 of 2, pretext (h3, h4) 0 of 2; severities standing: h2's 4 and h3's 2.
    assert.deepEqual([reviewed?.['defect_rate'], reviewed?.['defects'], reviewed?.['judged'], reviewed?.['no_verdict']], [0.5, 2, 4, 0]);
    const byTemplate = reviewed?.['by_template'] as Record<string, { rate: number; judged: number }>;
    assert.deepEqual([byTemplate['direct']?.rate, byTemplate['direct']?.judged, byTemplate['pretext']?.rate, byTemplate['pretext']?.judged], [1, 2, 0, 2]);
    assert.deepEqual(reviewed?.['severity_distribution'], { '1': 0, '2': 1, '3': 0, '4': 1 });
    // The leak truth over the standing severities: h2 defect and leak, h3 neither.
    const truth = reviewed?.['leak_truth'] as Record<string, number>;
    assert.deepEqual([truth['n'], truth['judge_defect_and_leak'], truth['neither']], [2, 1, 1]);
  });
});

describe('reviews of a run with repeats', () => {
  it('are of each item\'s first answer (repeat 0): a later repeat decides neither whether the verdict changed nor whether the item can be reviewed', async () => {
    const task = findTask('summaries/alignment');
    const run: RunRecord = {
      id: '20260301-120000-rvrp', task: task.name, taskVersion: task.version, status: 'finished',
      createdAt: '2026-03-01T12:00:00.000Z', updatedAt: '2026-03-01T12:00:00.000Z', models: [MODEL], settings: {}, seed: 0,
      options: { task: { articles: '/x/articles' } }, repeats: 2,
      engine: {}, provenance: { datasetChecksums: {}, promptVersion: '1', toolkitVersion: '0' }, events: [],
      judge: { model: 'openai:judge', selfGrading: false, repeats: 1, format: 'json', maxParseRetries: 0, temperature: 0 },
      sampleCount: 3,
    };
    await store.createRun(run, ['a', 'b', 'c'].map((id): Sample => ({ id, input: [{ role: 'user', content: id }], target: null, metadata: {} })));
    const aligned = (yes: boolean): Score => ({ value: yes, answer: { claims: [{ claim: 'c', verdict: yes ? 'yes' : 'no', reason: 'r' }] } });
    // Repeat 0: a aligned, b not, c an error. Repeat 1: a not, b not, c aligned.
    const plan: readonly (readonly [string, number, Score | null])[] = [
      ['a', 0, aligned(true)], ['b', 0, aligned(false)], ['c', 0, null],
      ['a', 1, aligned(false)], ['b', 1, aligned(false)], ['c', 1, aligned(true)],
    ];
    for (const [id, repeat, score] of plan) {
      await store.saveOutcome([], {
        runId: run.id, sampleId: id, modelId: MODEL, repeat, cached: false, attempts: 1, latencyMs: 1, finishedAt: '2026-03-01T12:00:01.000Z',
        ...(score === null
          ? { status: 'error', output: null, score: null, error: { kind: 'server', message: '503' }, usage: {}, costUsd: null }
          : { status: 'done', output: { text: 'a', toolCalls: [], finishReason: { unified: 'stop', raw: 'stop' }, usage: {}, warnings: [] }, score, error: null, usage: {}, costUsd: 0 }),
      });
    }
    // a fail: repeat 0 aligned, so changed (repeat 1, not aligned, would say it agrees); b fail: agrees with both.
    const { outcome, model, changedIds } = await review(run, 'item,verdict\na,fail\nb,fail\n');
    assert.deepEqual([outcome.applied, outcome.changed, model?.reviewed?.changed], [2, 1, 1]);
    assert.deepEqual(changedIds, ['a']);
    // c has no scored first answer (an error), though its repeat 1 has one: refused, naming the line and why.
    const file = join(dir, 'rvrp-c.csv');
    writeFileSync(file, 'item,verdict\nc,pass\n');
    await assert.rejects(applyReviewFile(store, run.id, file), /line 2: run 20260301-120000-rvrp has no scored output of given:answers for item "c" in repeat 0 \(a review is of an item's first answer\)/);
  });
});
