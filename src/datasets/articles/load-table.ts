import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { InputError, sha256 } from '../../core/index.js';
import type { Article, ArticleColumns, ArticleSet } from './article.js';
import { decodeText } from './decode-text.js';

/** One row of a CSV or JSONL source: its fields and its 1-based line in the file. */
interface Row {
  readonly fields: Readonly<Record<string, unknown>>;
  readonly line: number;
}

/**
 * Reads articles from a CSV file (a header row names the columns) or a JSONL file (one JSON object
 * a line), choosing by the extension (`.csv`, `.jsonl`/`.ndjson`). See {@link ArticleColumns} for
 * the defaults. Every row is checked before any is returned.
 * @throws InputError naming the file and line: a missing column, a row whose text is empty or not
 * a string, a JSONL line that is not an object, a duplicate id; or an empty file.
 */
export async function loadArticleTable(file: string, columns: ArticleColumns = {}): Promise<ArticleSet> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new InputError(`${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { file });
  }
  const { text, encoding } = decodeText(bytes);
  const rows = /\.csv$/i.test(file) ? csvRows(file, text) : jsonlRows(file, text);
  if (rows.length === 0) throw new InputError(`${file}: no articles in this file`, { file });
  const present = new Set(rows.flatMap((row) => Object.keys(row.fields)));
  const textColumn = columns.text ?? 'text';
  const idColumn = columns.id ?? (present.has('id') ? 'id' : undefined);
  const categoryColumn = columns.category ?? (present.has('category') ? 'category' : undefined);
  for (const [flag, name] of [['--text-column', textColumn], ['--id-column', columns.id], ['--category-column', columns.category]] as const) {
    if (name !== undefined && !present.has(name)) {
      throw new InputError(`${file}: no column "${name}" (${flag}); the file has ${[...present].map((c) => `"${c}"`).join(', ') || 'no columns'}`, { file });
    }
  }
  const articles: Article[] = [];
  const lineOfId = new Map<string, number>();
  for (const { fields, line } of rows) {
    const where = `${file}:${line}`;
    const body = fields[textColumn];
    if (typeof body !== 'string' || body.trim() === '') throw new InputError(`${where}: "${textColumn}" is ${typeof body === 'string' ? 'empty' : 'missing or not a string'}; expected the article text`, { file, line });
    const id = idColumn === undefined ? `line-${line}` : scalar(fields[idColumn]);
    if (id === undefined || id === '') throw new InputError(`${where}: "${idColumn ?? ''}" is empty or not a string or number; expected the article's id`, { file, line });
    const earlier = lineOfId.get(id);
    if (earlier !== undefined) throw new InputError(`${where}: duplicate id "${id}" (also on line ${earlier}); ids must be unique`, { file, line });
    lineOfId.set(id, line);
    const category = categoryColumn === undefined ? undefined : scalar(fields[categoryColumn]);
    articles.push({ id, text: body, ...(category ? { category } : {}), encoding, source: { file, line } });
  }
  return { articles, sha256: sha256(bytes), latin1: encoding === 'latin1' ? articles.map((a) => a.id) : [] };
}

/** A string or a number as text (ids are often numbers in JSONL); anything else undefined. */
function scalar(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function csvRows(file: string, text: string): Row[] {
  try {
    const records = parse(text, { bom: true, columns: true, skip_empty_lines: true, info: true }) as { record: Record<string, string>; info: { lines: number } }[];
    return records.map(({ record, info }) => ({ fields: record, line: info.lines }));
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw new InputError(`${file}${line === undefined ? '' : `:${line}`}: not valid CSV (${(error as Error).message})`, { file, ...(line === undefined ? {} : { line }) });
  }
}

function jsonlRows(file: string, text: string): Row[] {
  const rows: Row[] = [];
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
