import type { CorrectedDefectRateSummary } from '../benchmarks/corrected-rate.js';

const percent = (v: number): string => `${(100 * v).toFixed(1)}%`;

/**
 * The console line of a defect rate corrected for the judge's error (`assay show`, under the
 * reviewed metrics): the corrected rate with its interval beside the judge's own, what it was
 * computed from, the assumption it rests on, and the labels that would halve the interval.
 */
export function correctedRateLine(c: CorrectedDefectRateSummary, indent: string): string {
  const head = `${indent}defect rate corrected for the judge's error`;
  const raw = c.judge_rate === null ? 'the judge\'s: —' : `the judge's ${percent(c.judge_rate)}`;
  const leftOut = c.reviews_left_out > 0 ? `; ${c.reviews_left_out} review(s) of items the judge gave no verdict left out` : '';
  if (c.rate === null || c.ci95 === null) return `${head}: — beside ${raw} (needs at least 2 reviews of items the judge rated, has ${c.labelled}${leftOut})`;
  const halve = c.labels_to_halve === null ? 'reviewing more of these items alone cannot halve the interval' : `about ${c.labels_to_halve} reviews in all would halve the interval`;
  return (
    `${head}: ${percent(c.rate)} [${percent(c.ci95.low)}, ${percent(c.ci95.high)}] beside ${raw}` +
    ` (PPI: ${c.unlabelled} unreviewed + ${c.labelled} reviewed items, the reviewed taken as a random subset; ${halve}${leftOut})`
  );
}
