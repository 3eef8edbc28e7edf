import type { z } from 'zod';
import { InputError } from '../../core/index.js';
import { readDataFile as readSharedDataFile, readDataFileBytes as readSharedDataFileBytes, type DataFile, type DataFileBytes } from '../read-data-file.js';

/** A MetaTool data file's text, key and checksum. */
export type DataFileText = DataFile;

/**
 * Reads one MetaTool data file as UTF-8 and checksums its bytes.
 * @throws InputError naming the file when it is missing or unreadable.
 */
export const readDataFile = (dataDir: string, key: string): Promise<DataFileText> => readSharedDataFile(dataDir, key, { title: 'MetaTool data set', folder: 'metatool' });

/** A MetaTool data file's bytes, key and checksum, not decoded (all_clean_data.csv: see `readToolEPool`). */
export const readDataFileBytes = (dataDir: string, key: string): Promise<DataFileBytes> => readSharedDataFileBytes(dataDir, key, { title: 'MetaTool data set', folder: 'metatool' });

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
