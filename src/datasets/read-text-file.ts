import { readFile } from 'node:fs/promises';
import { InputError } from '../core/index.js';
import { decodeText } from './decode-text.js';

/**
 * Reads a user's text file (an article, a CSV or JSONL file): its bytes (for the checksum) and its
 * text, UTF-8 or — when the bytes are not valid UTF-8 — Latin-1, saying which.
 * @throws InputError naming the file when it cannot be read.
 */
export async function readTextFile(file: string): Promise<{ readonly bytes: Buffer; readonly text: string; readonly encoding: 'utf-8' | 'latin1' }> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new InputError(`${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { file });
  }
  return { bytes, ...decodeText(bytes) };
}
