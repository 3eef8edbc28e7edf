import { readFileSync } from 'node:fs';
import { InputError, type GenerateResult } from '../../../core/index.js';
import { parseReplayLine } from './parse-line.js';

/**
 * Reads and validates a whole replay file (JSON Lines, one recorded output per sample).
 * Blank lines are skipped; any bad line, or an id seen twice, is an `InputError` naming
 * `file:line`. Returns the outputs by sample id, in file order.
 */
export function loadReplayFile(file: string): Map<string, GenerateResult> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(`${file}: cannot read replay file (${code ?? (error as Error).message})`, { file });
  }
  const outputs = new Map<string, GenerateResult>();
  const firstLine = new Map<string, number>();
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    const entry = parseReplayLine(raw, { file, line });
    const seen = firstLine.get(entry.id);
    if (seen !== undefined) throw new InputError(`${file}:${line}: duplicate id "${entry.id}" (first on line ${seen})`, { file, line });
    firstLine.set(entry.id, line);
    outputs.set(entry.id, entry.result);
  });
  return outputs;
}
