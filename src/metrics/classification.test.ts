import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { binaryClassification, type BinaryRow } from './classification.js';

function repeat(count: number, row: BinaryRow): BinaryRow[] {
  return Array.from({ length: count }, () => row);
}

function assertClose(actual: number | null, expected: number, label: string): void {
  assert.ok(actual !== null && Math.abs(actual - expected) < 1e-12, `${label}: expected ${expected}, got ${actual}`);
}

describe('binaryClassification', () => {
  it('matches a hand-computed confusion matrix with no-verdict rows', () => {
    // 20 rows:        predicted yes | predicted no | no verdict
    //   actual yes:         6 (tp)  |      2 (fn)  |     2
    //   actual no:          3 (fp)  |      5 (tn)  |     2
    // accuracy  = (6 + 5) / 20          = 11/20 = 0.55
    // precision = 6 / (6 + 3)           = 2/3
    // recall    = 6 / (6 + 2 + 2)       = 6/10 = 0.6   (no-verdict positives count as missed)
    // f1        = 2·(2/3)·0.6 / (2/3 + 0.6) = 0.8 / (19/15) = 12/19
    // no_verdict = 4 / 20               = 0.2
    const rows = [
      ...repeat(6, { predicted: true, actual: true }),
      ...repeat(2, { predicted: false, actual: true }),
      ...repeat(2, { predicted: null, actual: true }),
      ...repeat(3, { predicted: true, actual: false }),
      ...repeat(5, { predicted: false, actual: false }),
      ...repeat(2, { predicted: null, actual: false }),
    ];
    // Mix the groups (i → 7i mod 20 is a permutation, 7 and 20 being coprime): order must not matter.
    const mixed = rows.map((_, i) => rows[(7 * i) % rows.length] as BinaryRow);
    const metrics = binaryClassification(mixed);
    assert.deepEqual(metrics.counts, { total: 20, tp: 6, fp: 3, tn: 5, fn: 2, no_verdict: 4 });
    assertClose(metrics.accuracy, 0.55, 'accuracy');
    assertClose(metrics.precision, 2 / 3, 'precision');
    assertClose(metrics.recall, 0.6, 'recall');
    assertClose(metrics.f1, 12 / 19, 'f1');
    assertClose(metrics.no_verdict, 0.2, 'no_verdict');
  });

  it('accepts any iterable, read once', () => {
    function* rows(): Generator<BinaryRow> {
      yield { predicted: true, actual: true };
      yield { predicted: false, actual: true };
    }
    const metrics = binaryClassification(rows());
    // tp 1, fn 1: accuracy 1/2, precision 1/1, recall 1/2, f1 = 2·1·0.5/1.5 = 2/3
    assert.equal(metrics.accuracy, 0.5);
    assert.equal(metrics.precision, 1);
    assert.equal(metrics.recall, 0.5);
    assertClose(metrics.f1, 2 / 3, 'f1');
    assert.equal(metrics.no_verdict, 0);
  });

  it('gives null, not 0 or NaN, for every ratio of an empty input', () => {
    assert.deepEqual(binaryClassification([]), {
      accuracy: null,
      precision: null,
      recall: null,
      f1: null,
      no_verdict: null,
      counts: { total: 0, tp: 0, fp: 0, tn: 0, fn: 0, no_verdict: 0 },
    });
  });

  it('precision is null without positive predictions, and then f1 is null', () => {
    // tn 2, fn 1: accuracy 2/3, precision 0/0 → null, recall 0/1 = 0.
    const metrics = binaryClassification([
      { predicted: false, actual: false },
      { predicted: false, actual: false },
      { predicted: false, actual: true },
    ]);
    assertClose(metrics.accuracy, 2 / 3, 'accuracy');
    assert.equal(metrics.precision, null);
    assert.equal(metrics.recall, 0);
    assert.equal(metrics.f1, null);
  });

  it('recall is null without actual positives', () => {
    // fp 1, tn 1: precision 0/1 = 0, recall 0/0 → null, f1 null.
    const metrics = binaryClassification([
      { predicted: true, actual: false },
      { predicted: false, actual: false },
    ]);
    assert.equal(metrics.precision, 0);
    assert.equal(metrics.recall, null);
    assert.equal(metrics.f1, null);
    assert.equal(metrics.accuracy, 0.5);
  });

  it('f1 is 0 when precision and recall are both 0', () => {
    // fp 1, fn 1: precision 0/1, recall 0/1.
    const metrics = binaryClassification([
      { predicted: true, actual: false },
      { predicted: false, actual: true },
    ]);
    assert.equal(metrics.precision, 0);
    assert.equal(metrics.recall, 0);
    assert.equal(metrics.f1, 0);
    assert.equal(metrics.accuracy, 0);
  });

  it('no-verdict rows are never positive or negative predictions', () => {
    // 3 rows, no verdict at all: accuracy 0/3, precision 0/0, recall 0/2, no_verdict 3/3.
    const metrics = binaryClassification([
      { predicted: null, actual: true },
      { predicted: null, actual: true },
      { predicted: null, actual: false },
    ]);
    assert.deepEqual(metrics.counts, { total: 3, tp: 0, fp: 0, tn: 0, fn: 0, no_verdict: 3 });
    assert.equal(metrics.accuracy, 0);
    assert.equal(metrics.precision, null);
    assert.equal(metrics.recall, 0);
    assert.equal(metrics.f1, null);
    assert.equal(metrics.no_verdict, 1);
  });
});
