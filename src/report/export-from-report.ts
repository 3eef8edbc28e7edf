import type { Score } from '../core/index.js';
import type { ExportPair } from './export.js';
import type { RunReport, RunReportOptions } from './run-report.js';
import type { SampleDetail } from './sample-rows.js';

/**
 * What `assay export` asks of the report: every row's details, but not the calls behind them (an
 * export has no column for them, and reading every call of a large run would be most of its cost).
 */
export const EXPORT_DETAILS: RunReportOptions = { details: { mode: 'all' }, calls: false };

/**
 * The score a detail was made from. A stored result that ended in error has no score, and one
 * that is done always has one (`runner/execute.ts`), so the verdict tells which; the optional
 * keys come back only where the score had them (a detail writes an absent one as null).
 */
function scoreOf(detail: SampleDetail): Score | null {
  if (detail.verdict === 'error') return null;
  return {
    value: detail.value,
    ...(detail.answer !== null ? { answer: detail.answer } : {}),
    ...(detail.explanation !== null ? { explanation: detail.explanation } : {}),
    ...(detail.scoreMetadata !== null ? { metadata: detail.scoreMetadata } : {}),
  };
}

/**
 * The report's details as an export's (sample, result) pairs: every row with a result, in the
 * index's order (sample by sample, the run's models in order: the store's order of results),
 * `model` alone when given. The report must carry every row's details (`EXPORT_DETAILS`).
 */
export function exportPairsOf(report: RunReport, model?: string): ExportPair[] {
  const { index, details } = report;
  const pairs: ExportPair[] = [];
  for (let row = 0; row < index.rows.sample.length; row++) {
    const detail = details[String(row)];
    if (!detail) {
      if (index.verdicts[index.rows.verdict[row] as number] === 'pending') continue;
      throw new Error(`the report of run ${report.overview.run} does not carry the details of row ${row}: build it with EXPORT_DETAILS`);
    }
    if (detail.verdict === 'pending' || (model !== undefined && detail.model !== model)) continue;
    pairs.push(pairOfDetail(detail));
  }
  return pairs;
}

/** A row's detail (one with a result) as the export's (sample, result) pair. */
export function pairOfDetail(detail: SampleDetail): ExportPair {
  return {
    sample: { id: detail.sample, input: detail.input, ...(detail.tools ? { tools: detail.tools } : {}), target: detail.target, metadata: detail.metadata },
    result: {
      sampleId: detail.sample,
      modelId: detail.model,
      ...(detail.repeat !== undefined ? { repeat: detail.repeat } : {}),
      status: detail.verdict === 'error' ? 'error' : 'done',
      output: detail.output,
      score: scoreOf(detail),
      error: detail.error,
      ...(detail.transcript ? { transcript: detail.transcript } : {}),
    },
  };
}
