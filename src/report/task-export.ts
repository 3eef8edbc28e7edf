import { InputError } from '../core/index.js';
import { taskNamed } from '../benchmarks/registry.js';
import { modifiedDataList } from './console.js';
import { delimited, delimitedPart, formatRows, rowColumns, rowsOfPairs, type ExportFormat, type ExportPair } from './export.js';
import type { ExportHead } from './export-pages.js';
import type { ExportTable } from '../benchmarks/export-layout.js';
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
    const table = layout(pairs);
    return format === 'jsonl' ? tableLines(table) : delimited(table.columns, table.rows, format);
  }
  return formatRows(rowsOfPairs(task, pairs, dataModified), format);
}

/** A task's own table as JSON lines: one object a row, its columns as keys. */
function tableLines({ columns, rows }: ExportTable): string {
  return rows.map((row) => JSON.stringify(Object.fromEntries(columns.map((c, i) => [c, row[i] ?? null])))).join('\n') + (rows.length ? '\n' : '');
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

/**
 * Writes an export a page of pairs at a time (`exportPairPages`), each part handed to `write` as
 * it is made: the parts joined are `exportPairsText` of all the pairs, byte for byte (the header
 * once, the columns as the first row gives them, an export with no row as it always was). Returns
 * how many (sample, model) rows were written.
 */
export async function writeExportParts(head: ExportHead, pages: AsyncIterable<readonly ExportPair[]>, format: ExportFormat, write: (text: string) => void | Promise<void>): Promise<number> {
  const layout = taskNamed(head.task)?.exportFormats?.[format];
  let pairs = 0;
  /** assay's delimited columns, as the first row gives them. */
  let columns: readonly string[] | undefined;
  for await (const page of pages) {
    if (page.length === 0) continue;
    // The delimited header goes with the first part only.
    const header = pairs === 0;
    pairs += page.length;
    if (layout !== undefined) {
      const table = layout(page);
      await write(format === 'jsonl' ? tableLines(table) : delimitedPart(table.columns, table.rows, format, header));
      continue;
    }
    const rows = rowsOfPairs(head.task, page, head.dataModified);
    if (format === 'jsonl') {
      await write(formatRows(rows, format));
      continue;
    }
    const shown = (columns ??= rowColumns(rows));
    await write(delimitedPart(shown, rows.map((r) => shown.map((c) => r[c])), format, header));
  }
  // No row: what the whole text of no pair is (a delimited export's header alone).
  if (pairs === 0) await write(exportPairsText(head.task, [], format, head.dataModified));
  return pairs;
}
