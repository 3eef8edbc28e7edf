import type { Sample, Score, ToolCall } from '../core/index.js';

/** What a task's own export layout reads of one stored result (`report/`'s exported result is one). */
export interface ExportedAnswer {
  readonly sampleId: string;
  readonly modelId: string;
  readonly status: 'done' | 'error';
  readonly score: Score | null;
  readonly error: { readonly kind: string; readonly message: string } | null;
  /** The text and the calls (by name and raw arguments), all an export shows of an output. */
  readonly output: { readonly text: string; readonly toolCalls: readonly Pick<ToolCall, 'name' | 'rawArguments'>[] } | null;
}

/** One exported (sample, model): the result and the sample it answers (undefined for a result whose sample is not stored). */
export interface ExportedPair {
  readonly sample: Sample | undefined;
  readonly result: ExportedAnswer;
}

/** A task's own export: its columns, in order, and one row of cells per line. */
export interface ExportTable {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly unknown[])[];
}

/**
 * A layout of a task's own for an export format (`Task.exportFormats`): the task says what the
 * columns and cells are; `report/` writes them (quoting, the guard against spreadsheet formulas).
 */
export type ExportLayout = (pairs: readonly ExportedPair[]) => ExportTable;
