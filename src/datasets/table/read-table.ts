import { createRequire } from 'node:module';
import { InputError, sha256 } from '../../core/index.js';
import { readTextFile } from '../read-text-file.js';

/**
 * csv-parse, loaded when a CSV is first parsed: `cli/agreement-command.ts` imports this module at
 * start-up, so a static import put csv-parse (~4 MB) in every command, a run included
 * (docs/benchmarks.md, issue 29). Synchronous (`require`, as `core/yaml-file.ts` loads yaml), so
 * `parseCsvRows` keeps its form.
 */
let csvParseModule: typeof import('csv-parse/sync') | undefined;
const csvParse = (): typeof import('csv-parse/sync') => (csvParseModule ??= createRequire(import.meta.url)('csv-parse/sync') as typeof import('csv-parse/sync'));

/** One row of a CSV or JSONL file: its fields and its 1-based line in the file. */
export interface TableRow {
  readonly fields: Readonly<Record<string, unknown>>;
  readonly line: number;
}

/** A user's CSV or JSONL file, read and checked for shape; its columns are the task's to interpret. */
export interface Table {
  readonly rows: readonly TableRow[];
  /** Every column (key) that appears in some row. */
  readonly columns: ReadonlySet<string>;
  readonly encoding: 'utf-8' | 'latin1';
  /** sha256 of the file's bytes. */
  readonly sha256: string;
}

/**
 * Reads a CSV file (a header row names the columns; quoted multi-line fields allowed) or a JSONL
 * file (one JSON object a line; blank lines skipped), by extension (`.csv`; anything else is read
 * as JSONL). Bytes that are not UTF-8 are read as Latin-1 (`encoding` says so).
 * @param what what the rows are, for the empty-file message (`articles`, `items`).
 * @throws InputError naming the file and line: unreadable file, invalid CSV, a line that is not
 * JSON or not an object; or the file has no rows.
 */
export async function readTable(file: string, what: string): Promise<Table> {
  const { bytes, text, encoding } = await readTextFile(file);
  const rows = /\.csv$/i.test(file) ? parseCsvRows(file, text) : jsonlRows(file, text);
  if (rows.length === 0) throw new InputError(`${file}: no ${what} in this file`, { file });
  return { rows, columns: new Set(rows.flatMap((row) => Object.keys(row.fields))), encoding, sha256: sha256(bytes) };
}

/** A string or a number as text (ids are often numbers in JSONL); anything else undefined. */
export function scalar(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/**
 * CSV text (a header row names the columns) as rows with their 1-based line (where the record ends).
 * @throws InputError naming the file and line when the CSV is invalid.
 */
export function parseCsvRows(file: string, text: string): TableRow[] {
  try {
    const records = csvParse().parse(text, { bom: true, columns: true, skip_empty_lines: true, info: true }) as { record: Record<string, string>; info: { lines: number } }[];
    return records.map(({ record, info }) => ({ fields: record, line: info.lines }));
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw new InputError(`${file}${line === undefined ? '' : `:${line}`}: not valid CSV (${(error as Error).message})`, { file, ...(line === undefined ? {} : { line }) });
  }
}

function jsonlRows(file: string, text: string): TableRow[] {
  const rows: TableRow[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw new InputError(`${file}:${line}: not valid JSON; expected one JSON object a line`, { file, line });
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new InputError(`${file}:${line}: a JSON ${Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value}, not an object; expected one JSON object a line`, { file, line });
    rows.push({ fields: value as Record<string, unknown>, line });
  });
  return rows;
}
