import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_COMPARISON } from '../benchmarks/comparison.js';
import { pairedProportionDifference } from '../metrics/paired-proportions.js';
import { comparePassFail } from '../analysis/compare/pass-fail.js';
import { buildRunComparison } from '../analysis/compare/run-comparison.js';
import { pairSamples } from '../analysis/compare/sample-pairs.js';
import type { ResultRecord, RunRecord } from '../store/records.js';
import { comparisonRegression, evaluateRegression, pairedReadingOf, type PairedModelReadings, type RegressionComparison, type RegressionGate } from './regression.js';

/** A comparison of one model whose pass-rate change B − A is `difference` with `interval`. */
function passChange(difference: number | null, interval: { low: number; high: number } | null, extra: Partial<PairedModelReadings> = {}): RegressionComparison {
  return {
    task: 'cases',
    runA: { id: 'BASE' },
    runB: { id: 'CAND' },
    comparisons: [{ modelA: 'bot', modelB: 'bot', samples: { shared: 100, inputDiffers: 0, errors: 0 }, passFail: { decided: 100, difference, interval, passMeans: 'pass' }, value: null, ...extra }],
  };
}
const PASS_RATE: RegressionGate = { metric: 'pass_rate', unit: 'share', reading: 'pass', direction: 'higher', margin: 0.02 };

describe('evaluateRegression: the decision against −margin', () => {
  it('fails when the whole interval of B − A lies beyond −margin (a regression with 95% confidence)', () => {
    const [r] = evaluateRegression(passChange(-0.1, { low: -0.2, high: -0.03 }), PASS_RATE);
    assert.deepEqual([r?.outcome, r?.relation, r?.value], ['fail', 'misses', -0.1]);
    assert.equal(r?.reason, 'B − A of pass_rate over 100 paired sample(s): -10.0%, 95% interval [-20.0%, -3.0%]: the whole interval is worse than a drop of 2.0%: a regression');
    assert.equal(r?.rule, 'no regression beyond -2.0% vs run BASE');
  });

  it('passes when the interval straddles −margin (not a regression with confidence); non-inferior then fails', () => {
    const straddling = passChange(-0.1, { low: -0.2, high: 0.01 });
    assert.deepEqual(evaluateRegression(straddling, PASS_RATE).map((r) => [r.outcome, r.relation]), [['pass', 'straddles']]);
    assert.deepEqual(evaluateRegression(straddling, { ...PASS_RATE, require: 'non-inferior' }).map((r) => r.outcome), ['fail']);
  });

  it('non-inferior passes when the whole interval is no worse than −margin (the bound inclusive)', () => {
    assert.deepEqual(evaluateRegression(passChange(0.02, { low: -0.01, high: 0.05 }), { ...PASS_RATE, require: 'non-inferior' }).map((r) => [r.outcome, r.relation]), [['pass', 'clears']]);
    assert.deepEqual(evaluateRegression(passChange(0, { low: -0.02, high: 0.02 }), { ...PASS_RATE, require: 'non-inferior' }).map((r) => r.outcome), ['pass']);
    assert.deepEqual(evaluateRegression(passChange(0, { low: -0.021, high: 0.02 }), { ...PASS_RATE, require: 'non-inferior' }).map((r) => r.outcome), ['fail']);
  });

  it('a better-lower metric read through pass/fail (defect_rate = share failing): a pass-rate drop is a defect-rate rise', () => {
    const [r] = evaluateRegression(passChange(-0.1, { low: -0.2, high: -0.03 }), { metric: 'defect_rate', unit: 'share', reading: 'pass', direction: 'lower', margin: 0.02 });
    assert.equal(r?.outcome, 'fail');
    assert.equal(r?.value, 0.1);
    assert.deepEqual(r?.interval, { low: 0.03, high: 0.2 });
    assert.match(r?.reason ?? '', /B − A of defect_rate over 100 paired sample\(s\): \+10\.0%, 95% interval \[\+3\.0%, \+20\.0%\]: the whole interval is worse than a rise of 2\.0%/);
  });

  it('a better-lower number (a severity) that fell is no regression', () => {
    const comparison = passChange(null, null, { passFail: null, value: { decided: 5, difference: -0.6, interval: { low: -1.2, high: -0.1 }, valueMeans: 'severity' } });
    const [r] = evaluateRegression(comparison, { metric: 'mean_severity', reading: 'value', direction: 'lower', margin: 0.1 });
    assert.deepEqual([r?.outcome, r?.relation, r?.value], ['pass', 'clears', -0.6]);
  });

  it('nothing decided in both runs, or no such reading: inconclusive, and samples not paired are said', () => {
    const none = evaluateRegression(passChange(null, null, { samples: { shared: 4, inputDiffers: 3, errors: 4 } }), PASS_RATE)[0];
    assert.deepEqual([none?.outcome, none?.reason], ['inconclusive', 'no sample was decided in both runs: nothing to compare; 3 sample(s) not paired (their inputs differ)']);
    const noReading = evaluateRegression(passChange(null, null, { passFail: null }), PASS_RATE)[0];
    assert.equal(noReading?.reason, 'the task\'s scores have no pass/fail reading: nothing to compare');
  });

  it('refuses a negative margin', () => {
    assert.throws(() => evaluateRegression(passChange(0, { low: 0, high: 0 }), { ...PASS_RATE, margin: -0.1 }), RangeError);
  });

  it('a metric\'s reading from its unit', () => {
    assert.deepEqual(['share', 'mean', 'level', 'count'].map(pairedReadingOf), ['pass', 'value', 'value', 'pass']);
  });
});

describe('evaluateRegression on compare\'s own comparison of two runs', () => {
  const run = (id: string): RunRecord => ({
    id, task: 'cases', taskVersion: '1', status: 'finished', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z',
    models: ['bot'], settings: {}, seed: 0, options: {}, engine: {}, provenance: { datasetChecksums: {}, promptVersion: 'p', toolkitVersion: 't' }, events: [], judge: null,
  });
  const result = (runId: string, sampleId: string, pass: boolean): ResultRecord => ({
    runId, sampleId, modelId: 'bot', status: 'done', output: null, score: { value: pass }, error: null, cached: false, attempts: 1, latencyMs: 1, usage: {}, costUsd: null, finishedAt: '2026-01-01T00:00:00.000Z',
  });
  // 22 samples. Baseline: all pass. Candidate: s0–s7 fail, the rest pass; s20 and s21 asked
  // another question in the candidate (their inputs differ), so they are not paired even though
  // both fail there. Paired: 20; both pass 12, newly failing 8 → B − A = −8/20 = −0.4.
  const ids = Array.from({ length: 22 }, (_, i) => `s${i}`);
  const resultsA = ids.map((id) => result('BASE', id, true));
  const resultsB = ids.map((id, i) => result('CAND', id, !(i < 8 || i >= 20)));
  const digestsA = new Map(ids.map((id) => [id, `q-${id}`]));
  const digestsB = new Map(ids.map((id, i) => [id, i >= 20 ? `other-${id}` : `q-${id}`]));
  const comparison = buildRunComparison({ runA: run('BASE'), runB: run('CAND'), resultsA, resultsB, comparison: DEFAULT_COMPARISON, inputs: { a: digestsA, b: digestsB } });
  const expected = pairedProportionDifference({ both: 12, firstOnly: 8, secondOnly: 0, neither: 0 });

  it('−0.4 over 20 pairs with Newcombe\'s interval, wholly beyond −0.02: fails', () => {
    const [r] = evaluateRegression(comparison, PASS_RATE);
    assert.equal(r?.value, -0.4);
    assert.deepEqual(r?.interval, expected.interval);
    assert.ok((expected.interval?.high ?? 0) < -0.02, JSON.stringify(expected.interval));
    assert.equal(r?.outcome, 'fail');
    assert.match(r?.reason ?? '', /over 20 paired sample\(s\).*; 2 sample\(s\) not paired \(their inputs differ\)$/);
  });

  it('the same runs compared the other way round are an improvement: passes, and non-inferior passes', () => {
    const reverse = buildRunComparison({ runA: run('CAND'), runB: run('BASE'), resultsA: resultsB, resultsB: resultsA, comparison: DEFAULT_COMPARISON, inputs: { a: digestsB, b: digestsA } });
    assert.deepEqual(evaluateRegression(reverse, { ...PASS_RATE, require: 'non-inferior' }).map((r) => [r.outcome, r.value]), [['pass', 0.4]]);
  });
});

describe('evaluateRegression on runs with repeats: the interval over samples decides', () => {
  const run = (id: string): RunRecord => ({
    id, task: 'cases', taskVersion: '1', status: 'finished', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z',
    models: ['bot'], settings: {}, seed: 0, options: {}, engine: {}, provenance: { datasetChecksums: {}, promptVersion: 'p', toolkitVersion: 't' }, events: [], judge: null, repeats: 3,
  });
  const result = (runId: string, sampleId: string, repeat: number, pass: boolean): ResultRecord => ({
    runId, sampleId, modelId: 'bot', status: 'done', output: null, score: { value: pass }, error: null, cached: false, attempts: 1, latencyMs: 1, usage: {}, costUsd: null, finishedAt: '2026-01-01T00:00:00.000Z', ...(repeat > 0 ? { repeat } : {}),
  });
  // 12 samples × 3 repeats, each sample's repeats alike: the baseline passes every one, the
  // candidate fails s0–s3. Counting 36 answers as independent makes the interval too narrow.
  const ids = Array.from({ length: 12 }, (_, i) => `s${i}`);
  const resultsA = ids.flatMap((id) => [0, 1, 2].map((r) => result('BASE', id, r, true)));
  const resultsB = ids.flatMap((id, i) => [0, 1, 2].map((r) => result('CAND', id, r, i >= 4)));
  const comparison = buildRunComparison({ runA: run('BASE'), runB: run('CAND'), resultsA, resultsB, comparison: DEFAULT_COMPARISON });
  const naive = comparePassFail(pairSamples(resultsA, resultsB, DEFAULT_COMPARISON).pairs, 'pass');

  it('a margin the naive per-answer interval would call a regression is not one over samples', () => {
    const cluster = comparison.comparisons[0]?.passFail?.interval;
    assert.ok(cluster && naive.interval && naive.interval.high < cluster.high, `naive ${JSON.stringify(naive.interval)}, cluster ${JSON.stringify(cluster)}`);
    // Between the two upper bounds: wholly beyond −margin per answer, not per sample.
    const margin = -(naive.interval.high + cluster.high) / 2;
    assert.ok(margin > 0);
    const [r] = evaluateRegression(comparison, { ...PASS_RATE, margin });
    assert.deepEqual([r?.outcome, r?.relation, r?.interval], ['pass', 'straddles', cluster]);
    assert.match(r?.reason ?? '', /^B − A of pass_rate over 12 paired sample\(s\), each over its repeats \(cluster bootstrap over samples\): -33\.3%/);
    // The naive interval with the same margin: a regression (what compare said before it paired by sample).
    const [before] = evaluateRegression({ ...comparison, comparisons: [{ modelA: 'bot', modelB: 'bot', samples: { shared: 36, inputDiffers: 0, errors: 0 }, passFail: naive, value: null }] }, { ...PASS_RATE, margin });
    assert.equal(before?.outcome, 'fail');
  });
});

describe('comparisonRegression (compare --fail-on-regression)', () => {
  it('reads every pair\'s pass rate, named by what a pass means', () => {
    const harm = passChange(-0.1, { low: -0.2, high: -0.03 });
    const withMeaning = { ...harm, comparisons: harm.comparisons.map((c) => ({ ...c, passFail: c.passFail && { ...c.passFail, passMeans: 'no defect' } })) };
    const [r] = comparisonRegression(withMeaning, 0.02);
    assert.deepEqual([r?.metric, r?.outcome, r?.unit], ['no defect rate', 'fail', 'share']);
    assert.equal(comparisonRegression(passChange(-0.1, { low: -0.2, high: -0.03 }), 0.25)[0]?.outcome, 'pass');
  });
});
