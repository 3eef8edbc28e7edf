import type { z } from 'zod';
import { InputError, parseYamlFile, type YamlFile } from '../../core/index.js';
import { HARM_MANIFEST_SCHEMA, type HarmManifest } from './manifest-schema.js';
import type { NamedAt, ResourceFiles } from './resource-files.js';

export const MANIFEST_FILE = 'manifest.yaml';

/**
 * Reads and validates a resource's `manifest.yaml`.
 * @throws InputError naming the file and the line of the offending key: YAML syntax, a schema
 * problem (missing key, wrong type, unknown key, threshold outside the scale, duplicate persona id).
 */
export async function loadManifest(files: ResourceFiles): Promise<{ readonly manifest: HarmManifest; readonly yaml: YamlFile }> {
  const { file, text } = await files.read(MANIFEST_FILE);
  const yaml = parseYamlFile(file, text);
  const parsed = HARM_MANIFEST_SCHEMA.safeParse(yaml.value);
  if (!parsed.success) {
    // The first problem in file order: a user fixes a manifest top to bottom.
    const problems = parsed.error.issues.map((issue) => describeIssue(yaml, issue)).sort((a, b) => a.line - b.line);
    const first = problems[0] as { line: number; message: string };
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
    throw new InputError(`${file}:${first.line}: ${first.message}${more}`, { file, line: first.line });
  }
  return { manifest: parsed.data, yaml };
}

/** One zod issue as `key.path: what is wrong`, with the line of the key it is about. */
function describeIssue(yaml: YamlFile, issue: z.core.$ZodIssue): { line: number; message: string } {
  const path = issue.path;
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    return { line: yaml.lineOf([...path, key]), message: `${dotted([...path, key])}: unknown key${issue.keys.length > 1 ? ` (also ${issue.keys.slice(1).join(', ')})` : ''}; see docs/harm.md for the keys a manifest takes` };
  }
  const missing = issue.code === 'invalid_type' && lookup(yaml.value, path) === undefined;
  const where = path.length === 0 ? 'the manifest' : dotted(path);
  return { line: yaml.lineOf(path), message: missing ? `${where}: missing (required)` : `${where}: ${issue.message}` };
}

/** Where the manifest gives the value at `path`: what a refusal of the file it names points at. */
export function namedAt(yaml: YamlFile, path: readonly PropertyKey[]): NamedAt {
  return { file: yaml.file, line: yaml.lineOf(path), field: dotted(path) };
}

function dotted(path: readonly PropertyKey[]): string {
  return path.map((step, i) => (typeof step === 'number' ? `[${step}]` : `${i === 0 ? '' : '.'}${String(step)}`)).join('');
}

function lookup(value: unknown, path: readonly PropertyKey[]): unknown {
  let node = value;
  for (const step of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[step];
  }
  return node;
}
