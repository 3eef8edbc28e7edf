import { InputError } from '../../core/index.js';
import { readCsvRecords, type CsvRecord } from '../csv-records.js';
import type { DataFileText } from './read-data-file.js';

/** One row of `data/all_clean_data.csv`: a user query and the tool that answers it. */
export interface ToolERow {
  readonly query: string;
  readonly tool: string;
  /** 1-based line where the record starts, for messages. */
  readonly line: number;
}

/**
 * The single-tool query pool: the CSV deduplicated by query text, without the queries whose
 * rows disagree on the tool (their gold is ambiguous).
 */
export interface ToolEPool {
  /** Every tool of the CSV, sorted by name (code-unit order). */
  readonly tools: readonly string[];
  /** Unambiguous queries of each tool, in CSV order, each once. */
  readonly queriesByTool: ReadonlyMap<string, readonly string[]>;
  /** The tool of each unambiguous query. */
  readonly toolOfQuery: ReadonlyMap<string, string>;
  readonly stats: {
    readonly rows: number;
    /** Rows whose query text already appeared on an earlier row (any tool). */
    readonly duplicateRows: number;
    /** Distinct queries dropped because their rows name more than one tool. */
    readonly ambiguousQueries: number;
    /** Distinct queries kept. */
    readonly queries: number;
  };
}

/**
 * Parses `all_clean_data.csv` (header `Query,Tool`).
 * @throws InputError naming the file and line of a malformed record, or a wrong header.
 */
export function parseToolECsv(data: DataFileText): ToolERow[] {
  let records: CsvRecord[];
  try {
    records = readCsvRecords(data.text);
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    const where = line === undefined ? '' : ` line ${line}:`;
    throw new InputError(`${data.file}:${where} not valid CSV (${(error as Error).message})`, line === undefined ? { file: data.file } : { file: data.file, line });
  }
  const [header, ...body] = records;
  if (!header || header.fields.length !== 2 || header.fields[0] !== 'Query' || header.fields[1] !== 'Tool') {
    throw new InputError(`${data.file}: line 1: expected the header "Query,Tool"`, { file: data.file, line: 1 });
  }
  return body.map(({ fields, line }) => {
    const [query, tool] = fields;
    if (fields.length !== 2 || !query || !tool) {
      throw new InputError(`${data.file}: line ${line}: expected two non-empty fields (Query,Tool), got ${JSON.stringify(fields)}`, { file: data.file, line });
    }
    return { query, tool, line };
  });
}

const AMBIGUOUS: unique symbol = Symbol('ambiguous');

/** Builds the deduplicated, unambiguous query pool from the CSV rows. */
export function buildToolEPool(rows: readonly ToolERow[]): ToolEPool {
  // Each query's tool, or AMBIGUOUS once two rows disagree (no Set per query: ~21,000 of them).
  const toolOrAmbiguous = new Map<string, string | typeof AMBIGUOUS>();
  for (const { query, tool } of rows) {
    const known = toolOrAmbiguous.get(query);
    if (known === undefined) toolOrAmbiguous.set(query, tool);
    else if (known !== tool) toolOrAmbiguous.set(query, AMBIGUOUS);
  }
  const queriesByTool = new Map<string, string[]>();
  const toolOfQuery = new Map<string, string>();
  let ambiguousQueries = 0;
  // Iterating the Map follows first appearance in the CSV, so each tool's list keeps CSV order.
  for (const [query, tool] of toolOrAmbiguous) {
    if (tool === AMBIGUOUS) {
      ambiguousQueries++;
      continue;
    }
    toolOfQuery.set(query, tool);
    const list = queriesByTool.get(tool);
    if (list === undefined) queriesByTool.set(tool, [query]);
    else list.push(query);
  }
  // Frozen: the strict parser's matcher for this list is then reused without comparing it again (`nameMatcher`).
  const tools = Object.freeze([...new Set(rows.map((r) => r.tool))].sort(compareNames));
  for (const tool of tools) if (!queriesByTool.has(tool)) queriesByTool.set(tool, []);
  return {
    tools,
    queriesByTool,
    toolOfQuery,
    stats: { rows: rows.length, duplicateRows: rows.length - toolOrAmbiguous.size, ambiguousQueries, queries: toolOfQuery.size },
  };
}

/** Code-unit order, the one order every list of names in assay's MetaTool code is sorted by. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
