import { z } from 'zod';
import type { YamlFile } from '../core/index.js';
import { MODEL_PARAMS } from './model-entry-schema.js';
import { nearestName } from '../core/nearest-name.js';
import { dottedPath } from './dotted-path.js';

/** One thing wrong with a config file, at a line: the loader reports the first in file order. */
export interface ConfigProblem {
  readonly line: number;
  /** `field.path: what is wrong`, without the file and line. */
  readonly message: string;
}

/**
 * An unknown key: with the nearest valid key when one is close, else the keys that are valid
 * there. A sampling parameter written beside `provider:` is pointed to `params:`.
 */
export function unknownKeyProblem(yaml: YamlFile, objectPath: readonly PropertyKey[], key: string, validKeys: readonly string[]): ConfigProblem {
  const line = yaml.lineOf([...objectPath, key]);
  const where = dottedPath([...objectPath, key]);
  const nearest = nearestName(key, validKeys);
  if (nearest !== undefined) return { line, message: `${where}: unknown key; did you mean "${nearest}"?` };
  // `temperature: 0` beside `provider:` belongs one level down.
  const parameter = validKeys.includes('params') ? nearestName(key, Object.keys(MODEL_PARAMS.shape)) : undefined;
  if (parameter !== undefined) return { line, message: `${where}: unknown key; a sampling parameter goes under params: (params: { ${parameter}: … })` };
  return { line, message: `${where}: unknown key; valid keys here: ${validKeys.join(', ')}` };
}

/**
 * A zod issue of one entry as a problem at the line of the key it is about (its parent's, for a
 * missing key). `base` is where the validated value sits in the file; `schema` is what validated
 * it, to list the keys valid where an unknown one was found.
 */
export function issueProblem(yaml: YamlFile, schema: z.ZodType, base: readonly PropertyKey[], value: unknown, issue: z.core.$ZodIssue): ConfigProblem {
  const path = [...base, ...issue.path];
  if (issue.code === 'unrecognized_keys') {
    const [key = ''] = issue.keys;
    return unknownKeyProblem(yaml, path, key, keysAt(schema, issue.path));
  }
  const where = dottedPath(path);
  const given = lookup(value, issue.path);
  if (issue.code === 'invalid_type' && given === undefined) return { line: yaml.lineOf(path), message: `${where}: missing (required)` };
  if (issue.code === 'invalid_type') return { line: yaml.lineOf(path), message: `${where}: expected ${article(issue.expected)}, got ${describeValue(given)}` };
  if (issue.code === 'invalid_value' && typeof given === 'string') {
    const options = issue.values.map(String);
    const nearest = nearestName(given, options);
    return { line: yaml.lineOf(path), message: `${where}: "${given}" is not one of ${options.join(', ')}${nearest === undefined ? '' : `; did you mean "${nearest}"?`}` };
  }
  if (issue.code === 'too_small' || issue.code === 'too_big') return { line: yaml.lineOf(path), message: `${where}: ${boundMessage(issue)}` };
  // A record's key (a header name): the key's own rule says what is wrong, not "Invalid key in record".
  if (issue.code === 'invalid_key') return { line: yaml.lineOf(path), message: `${where}: ${issue.issues[0]?.message ?? issue.message}` };
  return { line: yaml.lineOf(path), message: `${where}: ${issue.message}` };
}

/**
 * The problems of one entry's validation. A misspelt key also leaves the key it meant missing:
 * that is told once, as the unknown key with its suggestion, not again as a missing one.
 */
export function entryProblems(yaml: YamlFile, schema: z.ZodType, base: readonly PropertyKey[], value: unknown, issues: readonly z.core.$ZodIssue[]): ConfigProblem[] {
  const meant = new Set<string>();
  for (const issue of issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    const valid = keysAt(schema, issue.path);
    for (const key of issue.keys) {
      const nearest = nearestName(key, valid);
      if (nearest !== undefined) meant.add(dottedPath([...issue.path, nearest]));
    }
  }
  return issues
    .filter((issue) => !(issue.code === 'invalid_type' && lookup(value, issue.path) === undefined && meant.has(dottedPath(issue.path))))
    .map((issue) => issueProblem(yaml, schema, base, value, issue));
}

/** A bound in words: `must be at least 1`, `must not be empty`. */
function boundMessage(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig): string {
  // A schema's own message (exec's "needs at least the program") says it better than a rewording.
  if (!/^Too (small|big)\b/.test(issue.message)) return issue.message;
  const bound = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
  if (issue.origin === 'number' || issue.origin === 'int') {
    const relation = issue.code === 'too_small' ? (issue.inclusive ? 'at least' : 'more than') : issue.inclusive ? 'at most' : 'less than';
    return `must be ${relation} ${bound}`;
  }
  if (issue.code === 'too_small' && bound === 1) return 'must not be empty';
  return issue.message;
}

/** The keys of the object schema at `path` inside `schema` (through optionals, records and arrays). */
function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let node: z.ZodType | undefined = schema;
  for (const step of [...path, undefined]) {
    while (node instanceof z.ZodOptional) node = node.unwrap() as z.ZodType;
    if (step === undefined) break;
    if (node instanceof z.ZodObject) node = (node.shape as Record<string, z.ZodType>)[String(step)];
    else if (node instanceof z.ZodRecord) node = node.valueType as z.ZodType;
    else if (node instanceof z.ZodArray) node = node.element as z.ZodType;
    else return [];
  }
  return node instanceof z.ZodObject ? Object.keys(node.shape) : [];
}

function lookup(value: unknown, path: readonly PropertyKey[]): unknown {
  let node = value;
  for (const step of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[step];
  }
  return node;
}

function article(expected: string): string {
  if (expected === 'object') return 'a mapping';
  if (expected === 'array') return 'a list';
  if (expected === 'int') return 'an integer';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/** What the file gave, in YAML's words: a message quoting a value would echo what could be a secret. */
export function describeValue(value: unknown): string {
  if (value === null) return 'nothing (null)';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  return `a ${typeof value}`;
}
