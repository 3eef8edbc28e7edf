import { InputError } from '../core/index.js';
import { recordedModifiedData } from '../analysis/recorded-run.js';
import { reviewReadingOfRun } from '../analysis/review.js';
import { resultKey, summaryPageSamples } from '../analysis/summary.js';
import { taskOfRun } from '../benchmarks/task-of-run.js';
import type { ResultRecord, RunRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import { modifiedDataList } from './console.js';
import { pairOfDetail } from './export-from-report.js';
import type { ExportPair } from './export.js';
import { sampleDetail } from './sample-rows.js';

/** What `assay export` writes of a run before its rows: whose rows, and what every row carries. */
export interface ExportHead {
  readonly task: string;
  /** For a run on modified data, the files (`modifiedDataList`), put on every row. */
  readonly dataModified?: string;
}

/** The head of an export of `run`; refuses a `model` the run does not have, before anything is read. */
export function exportHeadOf(run: RunRecord, model?: string): ExportHead {
  if (model !== undefined && !run.models.includes(model)) throw new InputError(`run ${run.id} has no model ${model}; it has ${run.models.join(', ')}`);
  const modified = recordedModifiedData(run);
  return { task: run.task, ...(modified.length > 0 ? { dataModified: modifiedDataList(modified) } : {}) };
}

/**
 * `assay export`'s (sample, result) pairs, a page of samples at a time: the pairs the run's report
 * gives with every row's details (`exportPairsOf` over a report built with `EXPORT_DETAILS`), in
 * its order (sample by sample, the run's models in order, then repeat), `model` alone when given;
 * rows without a result are left out. Only a page's samples and results are held at once, so an
 * export's memory does not grow with the run (the report's way held every sample, result and
 * detail: ~15 KB a row, 420 MB at 19,793 MetaTool samples).
 */
export async function* exportPairPages(store: Store, run: RunRecord, model?: string): AsyncGenerator<ExportPair[]> {
  const task = taskOfRun(run);
  const reading = reviewReadingOfRun(run, task);
  const k = run.repeats ?? 1;
  const models = model === undefined ? run.models : [model];
  const pageSamples = summaryPageSamples(models.length, k);
  for (let from = 0; ; from += pageSamples) {
    const range = { from, limit: pageSamples };
    const samples = await store.loadSamples(run.id, range);
    if (samples.length === 0) return;
    const byModel = new Map<string, Map<string, ResultRecord>>(models.map((m) => [m, new Map()]));
    for (const result of await store.results(run.id, model, { range })) byModel.get(result.modelId)?.set(resultKey(result.sampleId, result.repeat), result);
    const pairs: ExportPair[] = [];
    for (const sample of samples) {
      for (const m of models) {
        for (let repeat = 0; repeat < k; repeat++) {
          const result = byModel.get(m)?.get(resultKey(sample.id, repeat));
          if (result === undefined) continue;
          // The review is not exported: none is read.
          pairs.push(pairOfDetail(sampleDetail(sample, m, result, undefined, [], reading, task, k > 1 ? repeat : undefined)));
        }
      }
    }
    yield pairs;
    if (samples.length < pageSamples) return;
  }
}
