import { readFile } from 'node:fs/promises';
import { InputError, sha256 } from '../core/index.js';
import type { Rubric } from './judge-request.js';

/**
 * A `{name}` placeholder: an identifier between single braces. Anything else in braces (JSON
 * examples such as `{"verdict": "pass"}`, `{ }`, `{1}`) is literal text, so a rubric can show the
 * judge a JSON shape without escaping. There is no `{{`/`}}` escape: braces that do not wrap an
 * identifier are already literal.
 */
export const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The distinct placeholder names of a template, in order of first appearance. */
export function rubricPlaceholders(template: string): string[] {
  const names = new Set<string>();
  for (const match of template.matchAll(PLACEHOLDER)) names.add(match[1] as string);
  return [...names];
}

/**
 * Reads a rubric file. `sha256` is of the file's bytes (what a run records to detect a changed
 * rubric); `template` is its UTF-8 text with surrounding whitespace trimmed, as upstream
 * FunctionChat-Bench does before filling it, so that the judge sees the same prompt.
 * @throws InputError naming the file when it cannot be read or holds only whitespace.
 */
export async function loadRubric(id: string, path: string): Promise<Rubric> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
    throw new InputError(`rubric ${id}: cannot read ${path}: ${why}`, { file: path });
  }
  const template = bytes.toString('utf8').trim();
  if (template === '') throw new InputError(`rubric ${id}: ${path} is empty (expected the rubric text with {placeholders})`, { file: path });
  return { id, source: path, template, sha256: sha256(bytes) };
}
