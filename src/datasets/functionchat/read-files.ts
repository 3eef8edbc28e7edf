import type { z } from 'zod';
import { InputError } from '../../core/index.js';
import { readDataFile, type DataFile } from '../read-data-file.js';

export type { DataFile } from '../read-data-file.js';

/**
 * Reads one FunctionChat data file as UTF-8 and checksums its bytes.
 * @throws InputError naming the file when it is missing or unreadable.
 */
export const readFunctionChatFile = (dataDir: string, key: string): Promise<DataFile> => readDataFile(dataDir, key, { title: 'FunctionChat-Bench data', folder: 'functionchat' });

/** `.turns[3].query`-style rendering of a zod issue path. */
function formatIssuePath(issuePath: readonly PropertyKey[]): string {
  return issuePath.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('');
}

/** One validated row of a JSONL file and the 1-based line it came from. */
export interface JsonlRow<T> {
  readonly line: number;
  readonly value: T;
}

/**
 * Parses a JSONL file: one JSON object per line, blank lines skipped, every row checked against
 * `schema`.
 * @param expected - what each line should hold, in words.
 * @throws InputError `<file>: line <n>: <problem>; expected <expected>`, with `details.line`.
 */
export function parseJsonl<T>(data: DataFile, schema: z.ZodType<T>, expected: string): JsonlRow<T>[] {
  const rows: JsonlRow<T>[] = [];
  const lines = data.text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const text = (lines[i] ?? '').replace(/\r$/, '');
    if (text.trim() === '') continue;
    const line = i + 1;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text) as unknown;
    } catch (error) {
      throw lineError(data, line, `not valid JSON (${(error as Error).message})`, expected);
    }
    const result = schema.safeParse(parsed);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw lineError(data, line, issue ? `at $${formatIssuePath(issue.path)}: ${issue.message}` : 'invalid row', expected);
    }
    rows.push({ line, value: result.data });
  }
  if (rows.length === 0) throw new InputError(`${data.file}: no rows; expected one JSON object per line, each ${expected}`, { file: data.file });
  return rows;
}

/** An InputError that names the file and the line. */
export function lineError(data: DataFile, line: number, problem: string, expected: string): InputError {
  return new InputError(`${data.file}: line ${line}: ${problem}; expected ${expected}`, { file: data.file, line });
}
