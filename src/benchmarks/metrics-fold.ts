import type { Metrics, MetricsFold, ScoredSample } from './task.js';

/**
 * A fold's metrics over rows held already: how a task with a {@link MetricsFold} writes its
 * `metrics`, so that the rows path (reviews, `assay show --readings`) and the summary's folded
 * path count the same way.
 */
export function foldRows(fold: MetricsFold, rows: Iterable<ScoredSample>): Metrics {
  for (const row of rows) fold.add(row);
  return fold.finish();
}
