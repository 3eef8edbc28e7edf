import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { InputError, sha256 } from '../../core/index.js';

/** A data file's text with the identity a run records: its data-dir-relative key and checksum. */
export interface DataFileText {
  /** Path relative to the data dir, always with `/` (e.g. `metatool/data/all_clean_data.csv`). */
  readonly key: string;
  /** Absolute path, for messages. */
  readonly file: string;
  readonly text: string;
  readonly sha256: string;
}

/**
 * Reads one data file as UTF-8 and checksums its bytes.
 * @throws InputError naming the file when it is missing or unreadable.
 */
export async function readDataFile(dataDir: string, key: string): Promise<DataFileText> {
  const file = path.join(dataDir, ...key.split('/'));
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'file not found' : `cannot read it (${code ?? String(error)})`;
    throw new InputError(`${file}: ${why}; expected the MetaTool data set in ${path.join(dataDir, 'metatool')} (set ASSAY_DATA_DIR or --data-dir to the folder that contains metatool/)`, { file });
  }
  return { key, file, text: bytes.toString('utf8'), sha256: sha256(bytes) };
}

/** 1-based line of a character offset in `text`. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * Parses JSON, turning a syntax error into an InputError that names the file and, when the
 * engine reports a position, the line.
 */
export function parseJsonFile(data: DataFileText): unknown {
  try {
    return JSON.parse(data.text) as unknown;
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message)?.[1];
    const line = position === undefined ? undefined : lineAt(data.text, Number(position));
    const where = line === undefined ? '' : ` line ${line}:`;
    throw new InputError(`${data.file}:${where} not valid JSON (${message})`, line === undefined ? { file: data.file } : { file: data.file, line });
  }
}

/** `$[3].label`-style rendering of a zod issue path. */
function formatIssuePath(issuePath: readonly PropertyKey[]): string {
  return issuePath.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('');
}

/**
 * Checks parsed JSON against a schema.
 * @param expected - what the file should hold, in words, e.g. `a list of {query, tool:[a, b]}`.
 * @throws InputError `<file>: at $[3].tool: <problem>; expected <expected>`.
 */
export function validateJson<T>(data: DataFileText, value: unknown, schema: z.ZodType<T>, expected: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue ? `at $${formatIssuePath(issue.path)}: ${issue.message}; ` : '';
  throw new InputError(`${data.file}: ${where}expected ${expected}`, { file: data.file });
}
