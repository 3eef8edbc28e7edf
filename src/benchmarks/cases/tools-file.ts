import { readFile } from 'node:fs/promises';
import { sha256, type ToolSpec } from '../../core/index.js';

/** A tools file read once: its tools in assay's shape and the sha256 of its bytes. */
export interface ToolsFile {
  readonly tools: readonly ToolSpec[];
  readonly sha256: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads a case's `tools:` file: a JSON array of OpenAI function tools,
 * `{"type": "function", "function": {"name", "description"?, "parameters"?}}` (the shape the
 * OpenAI API takes, so a file written for it serves unchanged). Names must be unique.
 * @throws Error saying what is wrong (the caller names the case file and line).
 */
export async function readToolsFile(file: string): Promise<ToolsFile> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(code === 'ENOENT' ? 'no such file' : `cannot read it (${code ?? String(error)})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8')) as unknown;
  } catch (error) {
    throw new Error(`not JSON (${(error as Error).message})`);
  }
  const expected = 'a JSON array of {"type": "function", "function": {"name", "description", "parameters"}}';
  if (!Array.isArray(value) || value.length === 0) throw new Error(`expected ${expected}`);
  const tools = value.map((item, i): ToolSpec => {
    const fn = isRecord(item) ? item['function'] : undefined;
    if (!isRecord(item) || item['type'] !== 'function' || !isRecord(fn)) throw new Error(`tool [${i}]: expected {"type": "function", "function": {…}}`);
    const { name, description, parameters } = fn;
    if (typeof name !== 'string' || name.trim() === '') throw new Error(`tool [${i}]: function.name must be a non-empty string`);
    if (description !== undefined && typeof description !== 'string') throw new Error(`tool [${i}] ${name}: function.description must be a string`);
    if (parameters !== undefined && !isRecord(parameters)) throw new Error(`tool [${i}] ${name}: function.parameters must be a JSON Schema object`);
    return { name, description: description ?? '', parameters: (parameters ?? { type: 'object', properties: {} }) as ToolSpec['parameters'] };
  });
  const seen = new Set<string>();
  for (const t of tools) {
    if (seen.has(t.name)) throw new Error(`tool ${JSON.stringify(t.name)} is listed twice`);
    seen.add(t.name);
  }
  return { tools, sha256: sha256(bytes) };
}
