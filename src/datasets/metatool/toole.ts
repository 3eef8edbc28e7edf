import { InputError } from '../../core/index.js';
import { forEachCsvRecord, forEachCsvRecordOfBytes } from '../csv-records.js';
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
  const rows: ToolERow[] = [];
  forEachToolERow(data.file, (visit) => forEachCsvRecord(data.text, visit), (query, tool, line) => {
    rows.push({ query, tool, line });
  });
  return rows;
}

/**
 * `buildToolEPool(parseToolECsv(data))` for the file's bytes (`data.bytes`, UTF-8), built as the
 * file is read: no record or row object for each of its 20,615 lines, and no decoded text
 * (`forEachCsvRecordOfBytes`). Those were most of what the young generation copied while a
 * MetaTool run prepared (several scavenges of all-live objects), and the text 5.5 MB of V8's
 * large-object space.
 * @throws InputError as `parseToolECsv` does.
 */
export function readToolEPool(data: { readonly file: string; readonly bytes: Buffer }): ToolEPool {
  const pool = new ToolEPoolBuilder();
  forEachToolERow(data.file, (visit) => forEachCsvRecordOfBytes(data.bytes, visit), (query, tool) => pool.add(query, tool));
  return pool.build();
}

/**
 * Hands each row of `all_clean_data.csv` to `visit`, in order. A file with a problem throws what
 * `readCsvRecords` and the checks after it threw when the whole file was read first: a CSV syntax
 * error anywhere before a wrong header, a wrong header before a bad row, the first bad row.
 * Rows visited before the error are the caller's to drop.
 */
function forEachToolERow(
  file: string,
  records: (visit: (fields: readonly string[], line: number) => void) => void,
  visit: (query: string, tool: string, line: number) => void,
): void {
  let first = true;
  let problem: InputError | undefined;
  try {
    records((fields, line) => {
      if (problem !== undefined) return;
      if (first) {
        first = false;
        if (fields.length !== 2 || fields[0] !== 'Query' || fields[1] !== 'Tool') problem = wrongHeader(file);
        return;
      }
      const query = fields[0];
      const tool = fields[1];
      if (fields.length !== 2 || !query || !tool) {
        problem = new InputError(`${file}: line ${line}: expected two non-empty fields (Query,Tool), got ${JSON.stringify(fields)}`, { file, line });
        return;
      }
      visit(query, tool, line);
    });
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    const where = line === undefined ? '' : ` line ${line}:`;
    throw new InputError(`${file}:${where} not valid CSV (${(error as Error).message})`, line === undefined ? { file } : { file, line });
  }
  if (first) throw wrongHeader(file);
  if (problem !== undefined) throw problem;
}

const wrongHeader = (file: string): InputError => new InputError(`${file}: line 1: expected the header "Query,Tool"`, { file, line: 1 });

const AMBIGUOUS: unique symbol = Symbol('ambiguous');

/** Builds the deduplicated, unambiguous query pool from the CSV rows. */
export function buildToolEPool(rows: readonly ToolERow[]): ToolEPool {
  const pool = new ToolEPoolBuilder();
  for (let r = 0; r < rows.length; r++) {
    const { query, tool } = rows[r] as ToolERow;
    pool.add(query, tool);
  }
  return pool.build();
}

/** The pool of `buildToolEPool`, a row at a time. */
class ToolEPoolBuilder {
  // Each query's tool, or AMBIGUOUS once two rows disagree (no Set per query: ~21,000 of them).
  private readonly toolOrAmbiguous = new Map<string, string | typeof AMBIGUOUS>();
  /**
   * The tools of the rows whose tool is not their query's in `toolOrAmbiguous` (an ambiguous
   * query's): with the unambiguous queries' tools, every row's tool, without a set lookup for each
   * of the 20,614 rows (the first row of a query, almost all of them, puts its tool in the map).
   */
  private readonly otherTools = new Set<string>();
  private rows = 0;

  add(query: string, tool: string): void {
    this.rows++;
    const known = this.toolOrAmbiguous.get(query);
    if (known === undefined) this.toolOrAmbiguous.set(query, tool);
    else if (known !== tool) {
      if (known !== AMBIGUOUS) this.otherTools.add(known);
      this.otherTools.add(tool);
      this.toolOrAmbiguous.set(query, AMBIGUOUS);
    }
  }

  build(): ToolEPool {
    const { toolOrAmbiguous, rows } = this;
    const distinctQueries = toolOrAmbiguous.size;
    const queriesByTool = new Map<string, string[]>();
    let ambiguousQueries = 0;
    // Iterating the Map follows first appearance in the CSV, so each tool's list keeps CSV order.
    // The ambiguous queries are deleted from it as they come, and what is left is `toolOfQuery`,
    // in the same order, rather than a second map of ~20,500 entries built beside it.
    toolOrAmbiguous.forEach((tool, query) => {
      if (tool === AMBIGUOUS) {
        ambiguousQueries++;
        toolOrAmbiguous.delete(query);
        return;
      }
      const list = queriesByTool.get(tool);
      if (list === undefined) queriesByTool.set(tool, [query]);
      else list.push(query);
    });
    const toolOfQuery = toolOrAmbiguous as Map<string, string>;
    // Frozen: the strict parser's matcher for this list is then reused without comparing it again (`nameMatcher`).
    const tools = Object.freeze([...new Set([...queriesByTool.keys(), ...this.otherTools])].sort(compareNames));
    for (const tool of tools) if (!queriesByTool.has(tool)) queriesByTool.set(tool, []);
    return {
      tools,
      queriesByTool,
      toolOfQuery,
      stats: { rows, duplicateRows: rows - distinctQueries, ambiguousQueries, queries: toolOfQuery.size },
    };
  }
}

/** Code-unit order, the one order every list of names in assay's MetaTool code is sorted by. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
