import { ratio } from './rates.js';

/** One binary decision: what the model answered (null = no verdict) and the truth. */
export interface BinaryRow {
  readonly predicted: boolean | null;
  readonly actual: boolean;
}

export interface BinaryMetrics {
  readonly accuracy: number | null;
  readonly precision: number | null;
  readonly recall: number | null;
  readonly f1: number | null;
  /** Share of rows with no verdict. */
  readonly no_verdict: number | null;
  readonly counts: { readonly total: number; readonly tp: number; readonly fp: number; readonly tn: number; readonly fn: number; readonly no_verdict: number };
}

/**
 * Accuracy, precision, recall and F1 of binary decisions, with `actual === true` as the positive
 * class (MetaTool awareness: "needs a tool").
 *
 * A row with `predicted: null` is a **no verdict**: it is neither a positive nor a negative
 * prediction (so never a tp/fp/tn/fn), but it stays in the denominators where the truth decides
 * membership: it counts as not correct in accuracy, and an actual positive without a verdict is
 * a positive the model did not find (recall). The no-verdict share is reported on its own.
 *
 * - accuracy = (tp + tn) / total
 * - precision = tp / (tp + fp)
 * - recall = tp / (actual positives, with or without a verdict)
 * - f1 = harmonic mean of precision and recall; null if either is null, 0 if both are 0
 * - no_verdict = rows without a verdict / total
 *
 * Any ratio whose denominator is 0 is `null` (undefined), never 0 or NaN.
 */
export function binaryClassification(rows: Iterable<BinaryRow>): BinaryMetrics {
  const tally = new BinaryTally();
  for (const row of rows) tally.add(row);
  return tally.metrics();
}

/** {@link binaryClassification} a row at a time: the confusion counts, kept until `metrics`. */
export class BinaryTally {
  private tp = 0;
  private fp = 0;
  private tn = 0;
  private fn = 0;
  private noVerdict = 0;
  private positivesWithoutVerdict = 0;

  add({ predicted, actual }: BinaryRow): void {
    if (predicted === null) {
      this.noVerdict += 1;
      if (actual) this.positivesWithoutVerdict += 1;
    } else if (predicted) {
      if (actual) this.tp += 1;
      else this.fp += 1;
    } else if (actual) this.fn += 1;
    else this.tn += 1;
  }

  metrics(): BinaryMetrics {
    const { tp, fp, tn, fn, noVerdict } = this;
    const total = tp + fp + tn + fn + noVerdict;
    const predictedPositives = tp + fp;
    const actualPositives = tp + fn + this.positivesWithoutVerdict;
    const precision = ratio(tp, predictedPositives);
    const recall = ratio(tp, actualPositives);
    // 2PR/(P+R) with P = tp/a and R = tp/b simplifies to 2tp/(a+b): computed from the counts so
    // that it carries no rounding from P and R. It is 0 when tp is 0 (precision and recall both 0).
    const f1 = precision === null || recall === null ? null : ratio(2 * tp, predictedPositives + actualPositives);
    return {
      accuracy: ratio(tp + tn, total),
      precision,
      recall,
      f1,
      no_verdict: ratio(noVerdict, total),
      counts: { total, tp, fp, tn, fn, no_verdict: noVerdict },
    };
  }
}
