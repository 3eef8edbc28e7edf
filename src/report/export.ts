import { stringify } from 'csv-stringify/sync';
import { isNoVerdict, type Sample, type Score, type ToolCall } from '../core/index.js';
import { taskNamed } from '../benchmarks/registry.js';
import type { ExportFormatName } from '../benchmarks/task.js';
import type { ResultRecord, RunRecord } from '../store/records.js';

/** `--format` of `assay export` (declared beside `Task.exportFormats`, which names a task's own layouts by it). */
export type ExportFormat = ExportFormatName;

/** One exported row: enough to audit a single verdict without opening the database. */
export interface ExportRow {
  readonly sample_id: string;
  readonly task: string;
  readonly model: string;
  /** The exact prompt sent (the user message; all messages as JSON when there are several). */
  readonly prompt: string;
  /** Candidate tools in the order the model saw them. */
  readonly candidates: readonly string[] | null;
  readonly gold: unknown;
  readonly output: string | null;
  readonly answer: unknown;
  /** pass / fail / no-verdict / a number / error. */
  readonly score: string;
  readonly explanation: string | null;
  readonly error: string | null;
  /** Only for a run on modified data (`--allow-modified-data`): the pinned files it read with other bytes. */
  readonly data_modified?: string;
  /** The task's own columns (`Task.exportColumns`), after the common ones. */
  readonly [column: string]: unknown;
}

/** What an export reads of a sample's result: a stored `ResultRecord` has it, and so does a report's sample detail (`export-from-report.ts`). */
export type ExportedResult = Pick<ResultRecord, 'sampleId' | 'modelId' | 'repeat' | 'status' | 'score' | 'error' | 'transcript'> & {
  /** The text and the calls (by name and raw arguments), all an export shows of an output. */
  readonly output: { readonly text: string; readonly toolCalls: readonly Pick<ToolCall, 'name' | 'rawArguments'>[] } | null;
};

/** One exported (sample, model): the result and the sample it answers (undefined for a result whose sample is not stored). */
export interface ExportPair {
  readonly sample: Sample | undefined;
  readonly result: ExportedResult;
}

/** Stored results paired with their samples, in the results' order. */
export function pairsOf(samples: readonly Sample[], results: readonly ExportedResult[]): ExportPair[] {
  const byId = new Map(samples.map((s) => [s.id, s]));
  return results.map((result) => ({ sample: byId.get(result.sampleId), result }));
}

/** `dataModified`: for a run on modified data, the files (see `modifiedDataList`), put on every row so no row leaves without it. */
export function exportRows(run: Pick<RunRecord, 'task'>, samples: readonly Sample[], results: readonly ExportedResult[], dataModified?: string): ExportRow[] {
  return rowsOfPairs(run.task, pairsOf(samples, results), dataModified);
}

/** The rows of a run of `task` (the task's own columns after the common ones). */
export function rowsOfPairs(task: string, pairs: readonly ExportPair[], dataModified?: string): ExportRow[] {
  const known = taskNamed(task);
  const ownColumns = known?.exportColumns;
  const manualAnalysis = (score: Score): boolean => known?.isManualAnalysis?.(score) === true;
  return pairs.map(({ sample, result: r }) => {
    const input = sample?.input ?? [];
    const prompt = input.length === 1 && input[0] ? input[0].content : JSON.stringify(input);
    const candidates = sample?.metadata['candidates'];
    return {
      sample_id: r.sampleId,
      task,
      model: r.modelId,
      // Only a run with repeats > 1 has the column (its every row, repeat 0 included): other exports keep theirs.
      ...(r.repeat !== undefined ? { repeat: r.repeat } : {}),
      prompt,
      candidates: Array.isArray(candidates) ? (candidates as string[]) : null,
      gold: sample?.target ?? null,
      output: r.output ? outputText(r.output.text, r.output.toolCalls) : null,
      answer: r.score?.answer ?? null,
      score: r.status === 'error' ? 'error' : scoreLabel(r.score, manualAnalysis),
      explanation: r.score?.explanation ?? null,
      error: r.error ? `${r.error.kind}: ${r.error.message}` : null,
      ...(dataModified !== undefined ? { data_modified: dataModified } : {}),
      // A sample answered in several calls (a conversation): every step, in order, who said what.
      ...(r.transcript ? { transcript: r.transcript.map(({ role, step, model, text, error }) => ({ role, step, model, text, ...(error ? { error: `${error.kind}: ${error.message}` } : {}) })) } : {}),
      ...(ownColumns && sample ? ownColumns(sample, r.score) : {}),
    };
  });
}

function outputText(text: string, toolCalls: readonly { name: string; rawArguments: string }[]): string {
  if (toolCalls.length === 0) return text;
  return [text, ...toolCalls.map((c) => `${c.name}(${c.rawArguments})`)].filter((s) => s !== '').join('\n');
}

function scoreLabel(score: Score | null, manualAnalysis: (score: Score) => boolean): string {
  if (score && manualAnalysis(score)) return 'manual';
  if (!score || isNoVerdict(score)) return 'no-verdict';
  if (typeof score.value === 'number') return String(score.value);
  return score.value ? 'pass' : 'fail';
}

/**
 * A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first) gets a leading
 * `'`: model outputs and dataset rows are untrusted text and must stay data when someone opens
 * the CSV in a spreadsheet. JSONL exports are byte-exact.
 */
export function neutralizeFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** One CSV/TSV cell: lists and objects as JSON, formulas neutralized. */
export const cell = (v: unknown): string => neutralizeFormula(v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/** A header line and one line per row, comma- or tab-separated, quoted where needed. */
export function delimited(columns: readonly string[], rows: readonly (readonly unknown[])[], format: 'csv' | 'tsv'): string {
  return delimitedPart(columns, rows, format, true);
}

/** Serializes rows; CSV/TSV cells holding lists or objects carry them as JSON. */
export function formatRows(rows: readonly ExportRow[], format: ExportFormat): string {
  if (format === 'jsonl') return rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : '');
  const columns = rowColumns(rows);
  return delimited(columns, rows.map((r) => columns.map((c) => r[c])), format);
}

/**
 * The columns of assay's rows: the common ones (`repeat` when a row has one, `data_modified` when
 * a row has it: a run's rows all have them or none does), then the task's own, in the order its
 * first row gives them.
 */
export function rowColumns(rows: readonly ExportRow[]): string[] {
  const withRepeat = rows.some((r) => r.repeat !== undefined);
  const base = ['sample_id', 'task', 'model', ...(withRepeat ? ['repeat'] : []), 'prompt', 'candidates', 'gold', 'output', 'answer', 'score', 'explanation', 'error'];
  // The extra column only for a run on modified data, so every other export keeps its columns.
  const common: readonly string[] = rows.some((r) => r.data_modified !== undefined) ? [...base, 'data_modified'] : base;
  return [...common, ...Object.keys(rows[0] ?? {}).filter((c) => !common.includes(c) && c !== 'data_modified')];
}

/**
 * Lines of CSV/TSV under `columns`: the header first when `header` (the first part of a text
 * written in parts; the parts joined read as `delimited` of all their rows).
 */
export function delimitedPart(columns: readonly string[], rows: readonly (readonly unknown[])[], format: 'csv' | 'tsv', header: boolean): string {
  return stringify(
    rows.map((row) => row.map(cell)),
    { header, columns: [...columns], delimiter: format === 'tsv' ? '\t' : ',' },
  );
}
