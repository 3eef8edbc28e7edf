import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RepeatPassFold, RepeatValueFold, repeatPassFigures, repeatValueFigures } from './repeats.js';
import { bootstrapMeanInterval, wilsonInterval } from './intervals.js';
import { rngFor } from '../core/random.js';

const T = true;
const F = false;

test('pass@k, pass^k and the mean pass rate on a hand case; a sample with a no-verdict repeat is in none of them', () => {
  // k = 3, six samples:
  //   a: T T T  → pass@3 yes, pass^3 yes, 3 passes
  //   b: T F T  → yes, no, 2
  //   c: F F F  → no, no, 0
  //   d: F T F  → yes, no, 1
  //   e: T null T → undecided (a no verdict is never a pass nor a fail)
  //   f: T T (only two repeats stored) → undecided
  // decided = 4 (a–d); pass@3 = 3/4 = 0.75; pass^3 = 1/4 = 0.25;
  // mean pass rate = (3 + 2 + 0 + 1) / (4 · 3) = 6/12 = 0.5.
  const f = repeatPassFigures([[T, T, T], [T, F, T], [F, F, F], [F, T, F], [T, null, T], [T, T]], 3, 7);
  assert.equal(f.k, 3);
  assert.equal(f.decided, 4);
  assert.equal(f.undecided, 2);
  assert.equal(f.passAtK, 0.75);
  assert.equal(f.passHatK, 0.25);
  assert.equal(f.passRate, 0.5);
  // Wilson over the 4 decided samples.
  assert.deepEqual(f.passAtKCi95, wilsonInterval(3, 4));
  assert.deepEqual(f.passHatKCi95, wilsonInterval(1, 4));
  // The bootstrap resamples samples' pass shares (1, 2/3, 0, 1/3): its bounds lie within their range and around the mean.
  const ci = f.passRateCi95;
  assert.ok(ci !== null && ci.low >= 0 && ci.low < 0.5 && ci.high > 0.5 && ci.high <= 1, JSON.stringify(ci));
  // Reproducible: the same seed gives the same interval, another seed may not.
  assert.deepEqual(repeatPassFigures([[T, T, T], [T, F, T], [F, F, F], [F, T, F]], 3, 7).passRateCi95, ci);
});

test('with k = 1, pass@k, pass^k and the mean pass rate are all the pass rate of the decided samples', () => {
  const one = repeatPassFigures([[T], [F], [T], [null]], 1, 1);
  assert.equal(one.passAtK, 2 / 3);
  assert.equal(one.passHatK, 2 / 3);
  assert.equal(one.passRate, 2 / 3);
  assert.equal(one.undecided, 1);
});

test('no decided sample: every figure null, no interval', () => {
  const f = repeatPassFigures([[T, null], [null, null]], 2, 1);
  assert.deepEqual([f.decided, f.undecided, f.passRate, f.passRateCi95, f.passAtK, f.passAtKCi95, f.passHatK, f.passHatKCi95], [0, 2, null, null, null, null, null, null]);
});

test('numeric scores: the mean over repeats and the mean within-sample standard deviation on a hand case', () => {
  // k = 2: a = (1, 3): mean 2, SD 1; b = (2, 2): SD 0; c = (5, null): undecided.
  // mean = (1 + 3 + 2 + 2) / 4 = 2; spread = (1 + 0) / 2 = 0.5.
  const f = repeatValueFigures([[1, 3], [2, 2], [5, null]], 2);
  assert.deepEqual(f, { k: 2, decided: 2, undecided: 1, mean: 2, spread: 0.5 });
});

/**
 * The figures as they were computed before the folds (2026-11-28): over every sample's arrays at
 * once. The folds keep a number of passes, or running sums, per sample instead; they must give
 * the same numbers to the last bit.
 */
function passFiguresOfArrays(samples: readonly (readonly (boolean | null)[])[], k: number, seed: number): unknown {
  const decided = samples.filter((v) => v.length === k && v.every((x) => x !== null)) as (readonly boolean[])[];
  const n = decided.length;
  const atLeastOne = decided.filter((v) => v.some((x) => x)).length;
  const all = decided.filter((v) => v.every((x) => x)).length;
  const shares = decided.map((v) => v.filter((x) => x).length / k);
  return {
    k,
    decided: n,
    undecided: samples.length - n,
    passRate: n === 0 ? null : decided.reduce((sum, v) => sum + v.filter((x) => x).length, 0) / (n * k),
    passRateCi95: n === 0 ? null : bootstrapMeanInterval(shares, { rng: rngFor(seed, 'repeat-pass-rate') }),
    passAtK: n === 0 ? null : atLeastOne / n,
    passAtKCi95: wilsonInterval(atLeastOne, n),
    passHatK: n === 0 ? null : all / n,
    passHatKCi95: wilsonInterval(all, n),
  };
}

function valueFiguresOfArrays(samples: readonly (readonly (number | null)[])[], k: number): unknown {
  const decided = samples.filter((v) => v.length === k && v.every((x) => x !== null)) as (readonly number[])[];
  const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
  const sds = decided.map((v) => {
    const m = sum(v) / k;
    return Math.sqrt(sum(v.map((x) => (x - m) ** 2)) / k);
  });
  return {
    k,
    decided: decided.length,
    undecided: samples.length - decided.length,
    mean: decided.length === 0 ? null : sum(decided.map((v) => sum(v))) / (decided.length * k),
    spread: decided.length === 0 ? null : sum(sds) / decided.length,
  };
}

test('the folds give the figures of the whole arrays to the last bit (random runs: verdicts, no verdicts, short samples, arbitrary floats)', () => {
  const rng = rngFor(29, 'repeat-folds');
  for (let run = 0; run < 60; run++) {
    const k = 1 + rng.int(6);
    const n = rng.int(run < 10 ? 4 : 400);
    const noVerdict = rng.next() * 0.2;
    const verdicts = Array.from({ length: n }, () => Array.from({ length: rng.next() < 0.03 ? k - 1 : k }, () => (rng.next() < noVerdict ? null : rng.next() < 0.6)));
    const values = Array.from({ length: n }, () => Array.from({ length: k }, () => (rng.next() < noVerdict ? null : (rng.next() - 0.3) * 10 ** rng.int(6))));
    const pass = new RepeatPassFold(k);
    verdicts.forEach((v) => pass.add(v));
    const value = new RepeatValueFold(k);
    values.forEach((v) => value.add(v));
    assert.deepEqual(pass.finish(run), passFiguresOfArrays(verdicts, k, run), `run ${run}`);
    assert.deepEqual(value.finish(), valueFiguresOfArrays(values, k), `run ${run}`);
    assert.deepEqual(repeatPassFigures(verdicts, k, run), passFiguresOfArrays(verdicts, k, run));
    assert.deepEqual(repeatValueFigures(values, k), valueFiguresOfArrays(values, k));
  }
});
