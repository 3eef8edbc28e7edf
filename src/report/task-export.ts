import { InputError } from '../core/index.js';
import { taskNamed } from '../benchmarks/registry.js';
import { modifiedDataList } from './console.js';
import { delimited, formatRows, rowsOfPairs, type ExportFormat, type ExportPair } from './export.js';
import { exportPairsOf } from './export-from-report.js';
import type { RunReport } from './run-report.js';

/**
 * The text of an export of a run of `task`: the task's own layout when it declares one for
 * `format` (`Task.exportFormats`), else assay's rows (`dataModified` on every row, see
 * `exportRows`). A task's own layout keeps its columns as the task defines them: one JSON
 * object a line in `jsonl`, else delimited like assay's rows.
 */
export function exportPairsText(task: string, pairs: readonly ExportPair[], format: ExportFormat, dataModified?: string): string {
  const layout = taskNamed(task)?.exportFormats?.[format];
  if (layout !== undefined) {
    const { columns, rows } = layout(pairs);
    if (format !== 'jsonl') return delimited(columns, rows, format);
    return rows.map((row) => JSON.stringify(Object.fromEntries(columns.map((c, i) => [c, row[i] ?? null])))).join('\n') + (rows.length ? '\n' : '');
  }
  return formatRows(rowsOfPairs(task, pairs, dataModified), format);
}

/** What `assay export` writes, and how many (sample, model) rows it holds. */
export interface ExportText {
  readonly text: string;
  readonly rows: number;
}

/**
 * `assay export` from the run's report (built with every detail, `EXPORT_DETAILS`): one row per
 * (sample, model) with a result, in run order, `model` alone when given.
 */
export function exportReportText(report: RunReport, format: ExportFormat, model?: string): ExportText {
  const { overview } = report;
  if (model !== undefined && !overview.models.includes(model)) throw new InputError(`run ${overview.run} has no model ${model}; it has ${overview.models.join(', ')}`);
  const pairs = exportPairsOf(report, model);
  const dataModified = overview.modifiedData.length > 0 ? modifiedDataList(overview.modifiedData) : undefined;
  return { text: exportPairsText(overview.task, pairs, format, dataModified), rows: pairs.length };
}
