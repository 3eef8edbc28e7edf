import { parse } from 'csv-parse/sync';
import { InputError } from '../../core/index.js';
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

type CsvRecord = { record: string[]; endLine: number };

/**
 * Parses `all_clean_data.csv` (header `Query,Tool`).
 * @throws InputError naming the file and line of a malformed record, or a wrong header.
 */
export function parseToolECsv(data: DataFileText): ToolERow[] {
  let records: CsvRecord[];
  try {
    // `on_record` keeps only the record and the line it ends on: csv-parse's full `info` objects
    // would hold ~20 MB more heap for the 20,000 rows while parsing.
    // (The typings only allow `on_record` to return a string[]; it may return anything.)
    const onRecord = (record: string[], context: { lines: number }): CsvRecord => ({ record, endLine: context.lines });
    records = parse(data.text, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      on_record: onRecord as unknown as (record: string[]) => string[],
    }) as unknown as CsvRecord[];
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    const where = line === undefined ? '' : ` line ${line}:`;
    throw new InputError(`${data.file}:${where} not valid CSV (${(error as Error).message})`, line === undefined ? { file: data.file } : { file: data.file, line });
  }
  const [header, ...body] = records;
  if (!header || header.record.length !== 2 || header.record[0] !== 'Query' || header.record[1] !== 'Tool') {
    throw new InputError(`${data.file}: line 1: expected the header "Query,Tool"`, { file: data.file, line: 1 });
  }
  return body.map(({ record, endLine }) => {
    // endLine is where the record ends; quoted fields may span lines, so step back over them.
    const line = endLine - record.reduce((n, field) => n + (field.match(/\n/g)?.length ?? 0), 0);
    const [query, tool] = record;
    if (record.length !== 2 || !query || !tool) {
      throw new InputError(`${data.file}: line ${line}: expected two non-empty fields (Query,Tool), got ${JSON.stringify(record)}`, { file: data.file, line });
    }
    return { query, tool, line };
  });
}

/** Builds the deduplicated, unambiguous query pool from the CSV rows. */
export function buildToolEPool(rows: readonly ToolERow[]): ToolEPool {
  const toolsOfQuery = new Map<string, Set<string>>();
  for (const { query, tool } of rows) {
    const tools = toolsOfQuery.get(query) ?? new Set<string>();
    tools.add(tool);
    toolsOfQuery.set(query, tools);
  }
  const queriesByTool = new Map<string, string[]>();
  const toolOfQuery = new Map<string, string>();
  let ambiguousQueries = 0;
  // Iterating the Map follows first appearance in the CSV, so each tool's list keeps CSV order.
  for (const [query, tools] of toolsOfQuery) {
    if (tools.size > 1) {
      ambiguousQueries++;
      continue;
    }
    const [tool] = [...tools] as [string];
    toolOfQuery.set(query, tool);
    const list = queriesByTool.get(tool) ?? [];
    list.push(query);
    queriesByTool.set(tool, list);
  }
  const tools = [...new Set(rows.map((r) => r.tool))].sort(compareNames);
  for (const tool of tools) if (!queriesByTool.has(tool)) queriesByTool.set(tool, []);
  return {
    tools,
    queriesByTool,
    toolOfQuery,
    stats: { rows: rows.length, duplicateRows: rows.length - toolsOfQuery.size, ambiguousQueries, queries: toolOfQuery.size },
  };
}

/** Code-unit order, the one order every list of names in assay's MetaTool code is sorted by. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
