import type { Sample } from '../core/index.js';
import { taskNamed } from '../benchmarks/registry.js';
import type { ExportLayoutName } from '../benchmarks/task.js';
import type { ResultRecord, RunRecord } from '../store/records.js';
import { exportRows, formatRows, type ExportFormat } from './export.js';
import { functionchatTsv } from './functionchat-tsv.js';

/** The writers of the layouts tasks may declare (`Task.exportFormats`); `satisfies` makes a missing one a compile error. */
const LAYOUTS = {
  // Upstream's report format, so FunctionChat's own tools read it as they read their own.
  'functionchat-report': functionchatTsv,
} satisfies Record<ExportLayoutName, (samples: readonly Sample[], results: readonly ResultRecord[]) => string>;

/**
 * The text `assay export` writes: the run's task's own layout when it declares one for `format`
 * (`Task.exportFormats`), else assay's rows (`dataModified` on every row, see `exportRows`). A
 * task's own layout keeps its columns as the task defines them.
 */
export function exportText(run: RunRecord, samples: readonly Sample[], results: readonly ResultRecord[], format: ExportFormat, dataModified?: string): string {
  const layout = taskNamed(run.task)?.exportFormats?.[format];
  if (layout !== undefined) return LAYOUTS[layout](samples, results);
  return formatRows(exportRows(run, samples, results, dataModified), format);
}
