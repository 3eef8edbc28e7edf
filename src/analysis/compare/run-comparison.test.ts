import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_COMPARISON } from '../../benchmarks/comparison.js';
import { harmComparison } from '../../benchmarks/harm/comparison.js';
import { InputError, type Score } from '../../core/index.js';
import { pairedProportionDifference } from '../../metrics/paired-proportions.js';
import type { ResultRecord, RunRecord } from '../../store/records.js';
import { buildRunComparison } from './run-comparison.js';

const run = (id: string, models: string[], extra: Partial<RunRecord> = {}): RunRecord => ({
  id,
  task: 'metatool/similar',
  taskVersion: '3',
  status: 'finished',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  models,
  settings: {},
  seed: 0,
  options: {},
  engine: {}, provenance: { datasetChecksums: {}, promptVersion: 'p', toolkitVersion: 't' }, events: [],
  judge: null,
  ...extra,
});

/** A stored result: a score value, or 'error' for a sample that ended in error. */
function result(runId: string, modelId: string, sampleId: string, outcome: Score['value'] | 'error' | Score): ResultRecord {
  const error = outcome === 'error';
  const score: Score | null = error ? null : typeof outcome === 'object' && outcome !== null ? outcome : { value: outcome };
  return {
    runId,
    sampleId,
    modelId,
    status: error ? 'error' : 'done',
    output: null,
    score,
    error: error ? { kind: 'server', message: '500' } : null,
    cached: false,
    attempts: 1,
    latencyMs: 1,
    usage: {},
    costUsd: null,
    finishedAt: '2026-01-01T00:00:00.000Z',
  };
}

const results = (runId: string, modelId: string, outcomes: Record<string, Score['value'] | 'error' | Score>): ResultRecord[] =>
  Object.entries(outcomes).map(([id, outcome]) => result(runId, modelId, id, outcome));

describe('buildRunComparison: pass/fail', () => {
  // By hand: s1–s3 pass both (unchanged), s4 A pass B fail (newly failing), s5–s7 A fail B pass
  // (newly passing), s8 fail both (still failing), s9 no verdict in B, s10 an error in A, s11 in B only.
  const runA = run('A1', ['m']);
  const runB = run('B1', ['m']);
  const resultsA = results('A1', 'm', { s1: true, s2: true, s3: true, s4: true, s5: false, s6: false, s7: false, s8: false, s9: true, s10: 'error' });
  const resultsB = results('B1', 'm', { s1: true, s2: true, s3: true, s4: false, s5: true, s6: true, s7: true, s8: false, s9: null, s10: true, s11: true });
  const comparison = buildRunComparison({ runA, runB, resultsA, resultsB, comparison: DEFAULT_COMPARISON });
  const [m] = comparison.comparisons;

  it('pairs the model with itself and counts shared, only-in-A, only-in-B, errors', () => {
    assert.equal(comparison.comparisons.length, 1);
    assert.equal(m?.modelA, 'm');
    assert.equal(m?.modelB, 'm');
    assert.deepEqual(m?.samples, { shared: 10, onlyInA: 0, onlyInB: 1, inputDiffers: 0, errors: 1 });
    assert.deepEqual(m?.errorIds, ['s10']);
    assert.equal(m?.value, null, 'boolean scores have no number');
  });

  it('puts each decided pair in one of four buckets; no verdicts and errors in none of them', () => {
    assert.deepEqual(m?.passFail?.buckets, {
      newlyFailing: ['s4'],
      newlyPassing: ['s5', 's6', 's7'],
      stillFailing: ['s8'],
      unchanged: ['s1', 's2', 's3'],
      noVerdict: ['s9'],
    });
  });

  it('rates over the 8 decided pairs: A 4/8, B 6/8, B − A = 0.25; McNemar b = 1, c = 3: p = 2·5/16, χ² = 1/4', () => {
    const pf = m?.passFail;
    assert.equal(pf?.decided, 8);
    assert.equal(pf?.noVerdict, 1);
    assert.equal(pf?.rateA, 0.5);
    assert.equal(pf?.rateB, 0.75);
    assert.equal(pf?.difference, 0.25);
    assert.deepEqual(pf?.intervalMethod === 'newcombe-paired-hybrid-score' ? pf.mcnemar : pf, { firstOnly: 1, secondOnly: 3, exactP: 0.625, chiSquare: 0.25 });
    assert.deepEqual(pf?.interval, pairedProportionDifference({ both: 3, firstOnly: 1, secondOnly: 3, neither: 1 }).interval);
    assert.equal(pf?.passMeans, 'pass');
  });

  it('an error is never read as a fail: the same runs with s10 failing in A would move it to newly passing', () => {
    const failed = results('A1', 'm', { s10: false });
    const other = buildRunComparison({ runA, runB, resultsA: [...resultsA.filter((r) => r.sampleId !== 's10'), ...failed], resultsB, comparison: DEFAULT_COMPARISON });
    assert.deepEqual(other.comparisons[0]?.passFail?.buckets.newlyPassing, ['s5', 's6', 's7', 's10']);
    assert.deepEqual(other.comparisons[0]?.errorIds, []);
  });
});

describe('buildRunComparison: numbers (a harm task: pass = no defect, value = severity)', () => {
  const judged = (severity: number): Score => ({ value: severity, answer: { severity, defect: severity >= 2, repeats: [severity], reasonings: [''], spread: 0, agreement: 1, unreadable: 0 } });
  const noVerdict: Score = { value: null, answer: null, explanation: 'judge: no verdict' };
  const runA = run('A2', ['sut'], { task: 'harm/system-prompt-leakage', taskVersion: '1' });
  const runB = run('B2', ['sut'], { task: 'harm/system-prompt-leakage', taskVersion: '1' });
  // Severities A → B: 3→1, 2→0, 0→0, 1→2, 3→3; c6 no verdict in A; c7 error in B.
  const resultsA = results('A2', 'sut', { c1: judged(3), c2: judged(2), c3: judged(0), c4: judged(1), c5: judged(3), c6: noVerdict, c7: judged(1) });
  const resultsB = results('B2', 'sut', { c1: judged(1), c2: judged(0), c3: judged(0), c4: judged(2), c5: judged(3), c6: judged(0), c7: 'error' });
  const comparison = buildRunComparison({ runA, runB, resultsA, resultsB, comparison: harmComparison });
  const m = comparison.comparisons[0];

  it('means over the 5 pairs rated on both sides: A 9/5, B 6/5, B − A = −0.6; 2 lower, 1 higher, 2 equal', () => {
    const v = m?.value;
    assert.equal(v?.valueMeans, 'severity');
    assert.equal(v?.decided, 5);
    assert.deepEqual(v?.noVerdictIds, ['c6']);
    assert.ok(Math.abs((v?.meanA ?? NaN) - 1.8) < 1e-12);
    assert.ok(Math.abs((v?.meanB ?? NaN) - 1.2) < 1e-12);
    assert.ok(Math.abs((v?.difference ?? NaN) + 0.6) < 1e-12);
    assert.deepEqual([v?.higher, v?.lower, v?.equal], [1, 2, 2]);
  });

  it('sign-flip p by hand: changes −2, −2, +1; |Σ ±| ≥ 3 for (−,−,+), (−,−,−), (+,+,−), (+,+,+) → 4/8', () => {
    assert.deepEqual(m?.value?.test, { method: 'sign-flip-permutation', p: 0.5, exact: true, resamples: null });
    // Differences −2, −2, 0, +1, 0: a resample's mean lies in [−2, 1]; the interval holds −0.6.
    const interval = m?.value?.interval;
    assert.ok(interval && interval.low >= -2 && interval.high <= 1 && interval.low < -0.6 && interval.high > -0.6, JSON.stringify(interval));
  });

  it('pass = not a defect (severity ≥ 2): c1, c2 newly passing, c4 newly failing, c5 still failing, c3 unchanged', () => {
    assert.deepEqual(m?.passFail?.buckets, { newlyFailing: ['c4'], newlyPassing: ['c1', 'c2'], stillFailing: ['c5'], unchanged: ['c3'], noVerdict: ['c6'] });
    assert.equal(m?.passFail?.passMeans, 'no defect');
    assert.deepEqual(m?.errorIds, ['c7']);
  });

  it('is the same object for the same stored scores (seeded)', () => {
    assert.deepEqual(buildRunComparison({ runA, runB, resultsA, resultsB, comparison: harmComparison }), comparison);
  });
});

describe('buildRunComparison: pairing and refusals', () => {
  const outcomes = { s1: true, s2: false };

  it('two runs of one model each, different models: compares them, and says so', () => {
    const c = buildRunComparison({ runA: run('A', ['x']), runB: run('B', ['y']), resultsA: results('A', 'x', outcomes), resultsB: results('B', 'y', outcomes), comparison: DEFAULT_COMPARISON });
    assert.deepEqual(c.comparisons.map((m) => [m.modelA, m.modelB]), [['x', 'y']]);
    assert.deepEqual(c.notes, ['different models: x (run A) against y (run B)']);
  });

  it('models in both runs are compared with themselves; the others are named as left out', () => {
    const c = buildRunComparison({
      runA: run('A', ['x', 'y']),
      runB: run('B', ['y', 'z']),
      resultsA: [...results('A', 'x', outcomes), ...results('A', 'y', outcomes)],
      resultsB: [...results('B', 'y', { s1: false, s2: false }), ...results('B', 'z', outcomes)],
      comparison: DEFAULT_COMPARISON,
    });
    assert.deepEqual(c.comparisons.map((m) => [m.modelA, m.modelB]), [['y', 'y']]);
    assert.deepEqual(c.comparisons[0]?.passFail?.buckets.newlyFailing, ['s1']);
    assert.deepEqual(c.notes, ['not compared: x (only in run A)', 'not compared: z (only in run B)']);
  });

  it('refuses runs of different tasks, naming both', () => {
    const fc = run('B', ['x'], { task: 'functionchat/dialog' });
    assert.throws(
      () => buildRunComparison({ runA: run('A', ['x']), runB: fc, resultsA: results('A', 'x', outcomes), resultsB: results('B', 'x', outcomes), comparison: DEFAULT_COMPARISON }),
      (e: unknown) => e instanceof InputError && /run A is metatool\/similar, run B is functionchat\/dialog/.test(e.message),
    );
  });

  it('refuses models that do not pair (two against one, none shared)', () => {
    assert.throws(
      () => buildRunComparison({ runA: run('A', ['x', 'y']), runB: run('B', ['z']), resultsA: [], resultsB: [], comparison: DEFAULT_COMPARISON }),
      (e: unknown) => e instanceof InputError && /no model is in both/.test(e.message),
    );
  });

  it('refuses runs without a shared sample', () => {
    assert.throws(
      () => buildRunComparison({ runA: run('A', ['x']), runB: run('B', ['x']), resultsA: results('A', 'x', { s1: true }), resultsB: results('B', 'x', { t1: true }), comparison: DEFAULT_COMPARISON }),
      (e: unknown) => e instanceof InputError && /share no sample/.test(e.message) && /1 result\(s\) in A, 1 in B/.test(e.message),
    );
  });

  it('notes task versions that differ', () => {
    const c = buildRunComparison({ runA: run('A', ['x']), runB: run('B', ['x'], { taskVersion: '4' }), resultsA: results('A', 'x', outcomes), resultsB: results('B', 'x', outcomes), comparison: DEFAULT_COMPARISON });
    assert.match(c.notes.join('\n'), /task versions differ: 3 \(run A\), 4 \(run B\)/);
  });
});
