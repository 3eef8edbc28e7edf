import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_COMPARISON } from '../../benchmarks/comparison.js';
import { pairedMeanDifference } from '../../metrics/paired-mean.js';
import type { ResultRecord, RunRecord } from '../../store/records.js';
import { makeResult, makeRun } from '../../store/test-support/store-contract.js';
import { comparePassFail } from './pass-fail.js';
import { buildRunComparison } from './run-comparison.js';
import { pairSamples } from './sample-pairs.js';

type Outcome = boolean | number | null | 'error';

const run = (id: string, repeats?: number): RunRecord => makeRun({ id, status: 'finished', models: ['m'], ...(repeats === undefined ? {} : { repeats }) });

/** A sample's results, one per repeat (repeat 0 stored without the field, as the store does). */
const sample = (runId: string, sampleId: string, outcomes: readonly Outcome[]): ResultRecord[] =>
  outcomes.map((o, repeat) =>
    makeResult({
      runId,
      sampleId,
      modelId: 'm',
      status: o === 'error' ? 'error' : 'done',
      score: o === 'error' ? null : { value: o },
      error: o === 'error' ? { kind: 'server', message: '500' } : null,
      ...(repeat > 0 ? { repeat } : {}),
    }),
  );

const runResults = (runId: string, samples: Readonly<Record<string, readonly Outcome[]>>): ResultRecord[] => Object.entries(samples).flatMap(([id, o]) => sample(runId, id, o));

describe('compare by sample (runs with repeats): a hand-computed case, 3 repeats', () => {
  const T = true;
  const F = false;
  const resultsA = runResults('A', { s1: [T, T, T], s2: [T, F, F], s3: [F, F, F], s4: [T, T, null], s5: [T, T, T], s6: [T, T, T], s7: [T, F, T] });
  const resultsB = runResults('B', { s1: [T, T, F], s2: [T, T, F], s3: [F, F, F], s4: [F, F, F], s5: [null, null, 'error'], s6: ['error', 'error', 'error'] });
  const comparison = buildRunComparison({ runA: run('A', 3), runB: run('B', 3), resultsA, resultsB, comparison: DEFAULT_COMPARISON });
  const m = comparison.comparisons[0];

  it('counts samples, not answers: s7 only in A, s6 in error on a side (every B repeat), s5 no verdict in B; the unit said', () => {
    assert.deepEqual(m?.samples, { shared: 6, onlyInA: 1, onlyInB: 0, inputDiffers: 0, errors: 1 });
    assert.deepEqual(m?.errorIds, ['s6']);
    assert.deepEqual(m?.pairing, {
      unit: 'sample',
      repeatsA: 3,
      repeatsB: 3,
      repeatErrors: 1,
      description: "paired by sample: 6 samples × up to 3 repeats, cluster bootstrap over samples; 1 repeat(s) ended in error, left out of their sample's figure",
    });
    assert.deepEqual(comparison.notes, [], 'the same k on both sides: no note');
  });

  it('per-sample shares by hand: s1 1 → 2/3, s2 1/3 → 2/3, s3 0 → 0, s4 1 (2 of its 2 verdicts) → 0; mean difference −1/4', () => {
    const pf = m?.passFail;
    assert.ok(pf && pf.intervalMethod === 'cluster-percentile-bootstrap');
    assert.equal(pf.decided, 4);
    assert.equal(pf.noVerdict, 1);
    // Differences −1/3, +1/3, 0, −1: mean −1/4; rates (1 + 1/3 + 0 + 1)/4 = 7/12 and (2/3 + 2/3 + 0 + 0)/4 = 1/3.
    assert.ok(Math.abs((pf.difference ?? NaN) + 0.25) < 1e-12, String(pf.difference));
    assert.ok(Math.abs((pf.rateA ?? NaN) - 7 / 12) < 1e-12);
    assert.ok(Math.abs((pf.rateB ?? NaN) - 1 / 3) < 1e-12);
    assert.deepEqual(pf.buckets, { newlyFailing: ['s1', 's4'], newlyPassing: ['s2'], stillFailing: ['s3'], unchanged: [], noVerdict: ['s5'] });
    // Sign-flip by hand: |±1/3 ± 1/3 ± 1| ≥ 1 for 6 of the 8 sign assignments (not ±(−1/3, −1/3, +1)).
    assert.deepEqual(pf.test, { method: 'sign-flip-permutation', p: 0.75, exact: true, resamples: null });
    // The interval is the paired bootstrap over the 4 samples' share pairs, and holds the estimate.
    const expected = pairedMeanDifference([[1, 2 / 3], [1 / 3, 2 / 3], [0, 0], [1, 0]], { seed: 'compare:m:m:pass' });
    assert.deepEqual(pf.interval, expected.interval);
    assert.equal(pf.bootstrapResamples, 2000);
    assert.ok(pf.interval && pf.interval.low >= -1 && pf.interval.high <= 1 / 3 && pf.interval.low < -0.25 && pf.interval.high > -0.25, JSON.stringify(pf.interval));
    assert.equal(m?.value, null, 'boolean scores have no number');
  });

  it('is the same object for the same stored scores (seeded)', () => {
    assert.deepEqual(buildRunComparison({ runA: run('A', 3), runB: run('B', 3), resultsA, resultsB, comparison: DEFAULT_COMPARISON }), comparison);
  });
});

describe('compare by sample: numbers, each side the mean over its repeats with a number', () => {
  it('by hand: s1 2 → 3, s2 1 → 1, s3 2 → 0 (an error and a no number left out of their sample)', () => {
    const c = buildRunComparison({
      runA: run('A', 3),
      runB: run('B', 3),
      resultsA: runResults('A', { s1: [1, 2, 3], s2: [0, 0, 3], s3: ['error', 2, 2] }),
      resultsB: runResults('B', { s1: [2, null, 4], s2: [1, 1, 1], s3: [0, 0, 0] }),
      comparison: DEFAULT_COMPARISON,
    }).comparisons[0];
    const v = c?.value;
    assert.equal(v?.intervalMethod, 'cluster-percentile-bootstrap');
    assert.equal(v?.decided, 3);
    // Means A 5/3, B 4/3; differences +1, 0, −2: mean −1/3; one higher, one lower, one equal.
    assert.ok(Math.abs((v?.meanA ?? NaN) - 5 / 3) < 1e-12 && Math.abs((v?.meanB ?? NaN) - 4 / 3) < 1e-12);
    assert.ok(Math.abs((v?.difference ?? NaN) + 1 / 3) < 1e-12);
    assert.deepEqual([v?.higher, v?.lower, v?.equal], [1, 1, 1]);
    assert.deepEqual(v?.interval, pairedMeanDifference([[2, 3], [1, 1], [2, 0]], { seed: 'compare:m:m' }).interval);
    assert.equal(c?.pairing?.repeatErrors, 1);
  });
});

describe('compare by sample: perfectly correlated repeats (each sample’s 3 repeats identical)', () => {
  // A passes all 12 samples; B fails s0–s3 and passes the rest, every repeat alike.
  const ids = Array.from({ length: 12 }, (_, i) => `s${i}`);
  const times = <T>(k: number, x: T): T[] => Array.from({ length: k }, () => x);
  const build = (k: number) =>
    buildRunComparison({
      runA: run('A', k),
      runB: run('B', k),
      resultsA: ids.flatMap((id) => sample('A', id, times(k, true))),
      resultsB: ids.flatMap((id, i) => sample('B', id, times(k, i >= 4))),
      comparison: DEFAULT_COMPARISON,
    }).comparisons[0];

  it('equals the analysis of the per-sample values once each (k = 1 analysed by sample): repeats that agree add nothing', () => {
    const three = build(3);
    // The same samples with one answer each, compared by sample (a run with repeats 3 against one with 1 goes by sample).
    const once = buildRunComparison({
      runA: run('A', 3),
      runB: run('B', 3),
      resultsA: ids.flatMap((id) => sample('A', id, [true])),
      resultsB: ids.flatMap((id, i) => sample('B', id, [i >= 4])),
      comparison: DEFAULT_COMPARISON,
    }).comparisons[0];
    assert.deepEqual(three?.passFail, once?.passFail);
    assert.ok(three?.passFail?.difference !== undefined && Math.abs((three.passFail.difference ?? NaN) + 1 / 3) < 1e-12);
  });

  it('its interval is wider than the naive one counting each (sample, repeat) as a unit', () => {
    const three = build(3);
    const resultsA = ids.flatMap((id) => sample('A', id, times(3, true)));
    const resultsB = ids.flatMap((id, i) => sample('B', id, times(3, i >= 4)));
    const naive = comparePassFail(pairSamples(resultsA, resultsB, DEFAULT_COMPARISON).pairs, 'pass');
    assert.equal(naive.decided, 36, 'the naive analysis sees 36 units');
    assert.equal(three?.passFail?.decided, 12, 'the cluster analysis 12');
    const width = (i: { low: number; high: number } | null | undefined): number => (i ? i.high - i.low : NaN);
    assert.ok(width(three?.passFail?.interval) > width(naive.interval), `cluster ${JSON.stringify(three?.passFail?.interval)} vs naive ${JSON.stringify(naive.interval)}`);
  });

  it('numbers: the cluster analysis of identical repeats gives exactly the figures of runs without repeats', () => {
    // Values that a sum-then-divide mean would not give back exactly (0.1 · 3 / 3 ≠ 0.1).
    const a = [0.1, 0.7, 2.3, 1.9, 0.3, 3.1, 0.2, 1.1, 0.6, 2.9];
    const b = [0.3, 0.7, 1.3, 2.9, 0.1, 2.2, 0.2, 0.4, 0.6, 1.7];
    const compared = (k: number) =>
      buildRunComparison({
        runA: run('A', k),
        runB: run('B', k),
        resultsA: a.flatMap((v, i) => sample('A', `s${i}`, times(k, v))),
        resultsB: b.flatMap((v, i) => sample('B', `s${i}`, times(k, v))),
        comparison: DEFAULT_COMPARISON,
      }).comparisons[0];
    const withRepeats = compared(3);
    const without = compared(1);
    assert.equal(without?.pairing, undefined, 'runs without repeats pair answer with answer, as always');
    assert.equal(without?.value?.intervalMethod, 'paired-percentile-bootstrap');
    assert.equal(withRepeats?.value?.intervalMethod, 'cluster-percentile-bootstrap');
    assert.deepEqual({ ...withRepeats?.value, intervalMethod: 'paired-percentile-bootstrap' }, without?.value);
  });
});

describe('compare by sample: runs with different numbers of repeats', () => {
  it('refuses runs without a shared sample, counting samples (not results)', () => {
    assert.throws(
      () => buildRunComparison({ runA: run('A', 3), runB: run('B', 3), resultsA: runResults('A', { s1: [true, true, true] }), resultsB: runResults('B', { t1: [true, false, true], t2: [true] }), comparison: DEFAULT_COMPARISON }),
      (e: unknown) => e instanceof Error && /share no sample/.test(e.message) && /m: 1 sample\(s\) in A, 2 in B/.test(e.message),
    );
  });

  it('pairs by sample, each side over its own repeats, and says so', () => {
    const c = buildRunComparison({
      runA: run('A', 3),
      runB: run('B'),
      resultsA: runResults('A', { s1: [true, false, true], s2: [false, false, false], s3: [true, true, true] }),
      resultsB: runResults('B', { s1: [true], s2: [true], s3: [false] }),
      comparison: DEFAULT_COMPARISON,
    });
    assert.deepEqual(c.notes, ['repeats differ: 3 per sample in run A, 1 in run B; paired by sample, each side over its own repeats']);
    const m = c.comparisons[0];
    assert.equal(m?.pairing?.description, 'paired by sample: 3 samples × up to 3 repeat(s) in A, 1 in B (each side over its own repeats), cluster bootstrap over samples');
    // By hand: s1 2/3 → 1 (+1/3), s2 0 → 1 (+1), s3 1 → 0 (−1): mean +1/9.
    assert.ok(Math.abs((m?.passFail?.difference ?? NaN) - 1 / 9) < 1e-12);
    assert.deepEqual(m?.passFail?.buckets.newlyPassing, ['s1', 's2']);
    assert.deepEqual(m?.passFail?.buckets.newlyFailing, ['s3']);
  });
});
