import type { ToolCall } from '../../core/index.js';
import type { AcceptableArguments, GroundTruthCall } from '../../datasets/functionchat/index.js';

/**
 * FunctionChat exact match of a tool-call item (pure). A match passes without a judge:
 * - exactly one call, with the ground truth's function name (case and spelling exact);
 * - arguments that parse as a JSON object (a call with a `parseError` fails);
 * - no key the ground truth lacks, and every ground-truth key present;
 * - every value equal to the ground truth's ({@link valuesEqual}) or to one of the values
 *   `acceptable_arguments` lists for that key.
 */
export interface ExactMatch {
  readonly match: boolean;
  /** Why not, in one line (e.g. `value of "location" differs`); "exact match" on a match. */
  readonly reason: string;
}

/** A string as exact match compares it: without any whitespace, lowercased. */
export const normalizeString = (text: string): string => text.replace(/\s+/gu, '').toLowerCase();

/**
 * Equality of a predicted and an expected argument value:
 * - strings: equal after {@link normalizeString} (`"Seoul Station"` = `"seoulstation"`);
 * - numbers: as numbers (`170` = `170.0`: JSON parsing already makes them one number);
 * - a string never equals a number (`"170"` ≠ `170`) and a boolean never equals a number:
 *   the rubric counts a wrong type as a failure;
 * - arrays element by element, objects key by key, with the same rules at every depth.
 */
export function valuesEqual(predicted: unknown, expected: unknown): boolean {
  if (typeof predicted === 'string' && typeof expected === 'string') return normalizeString(predicted) === normalizeString(expected);
  if (predicted === null || expected === null || typeof predicted !== 'object' || typeof expected !== 'object') return predicted === expected;
  if (Array.isArray(predicted) || Array.isArray(expected)) {
    return Array.isArray(predicted) && Array.isArray(expected) && predicted.length === expected.length && predicted.every((v, i) => valuesEqual(v, expected[i]));
  }
  const p = predicted as Record<string, unknown>;
  const e = expected as Record<string, unknown>;
  const keys = Object.keys(e);
  return Object.keys(p).length === keys.length && keys.every((k) => Object.hasOwn(p, k) && valuesEqual(p[k], e[k]));
}

/** The other values `acceptable_arguments` allows for `key` (none for null, "Only ground truth…" or a rule sentence). */
export function acceptableValues(acceptable: AcceptableArguments, key: string): readonly unknown[] {
  return acceptable.kind === 'alternatives' && Object.hasOwn(acceptable.values, key) ? (acceptable.values[key] ?? []) : [];
}

/** Whether a predicted value passes for `key`: equal to the ground truth's or to an acceptable one. */
export function valueAccepted(key: string, predicted: unknown, expected: unknown, acceptable: AcceptableArguments): boolean {
  return valuesEqual(predicted, expected) || acceptableValues(acceptable, key).some((alt) => valuesEqual(predicted, alt));
}

export const isArgumentsObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const quoted = (key: string): string => JSON.stringify(key);

export function exactMatch(expected: GroundTruthCall, acceptable: AcceptableArguments, calls: readonly ToolCall[]): ExactMatch {
  const miss = (reason: string): ExactMatch => ({ match: false, reason });
  if (calls.length === 0) return miss('no tool call');
  if (calls.length > 1) return miss(`${calls.length} tool calls; expected exactly one`);
  const call = calls[0] as ToolCall;
  if (call.name !== expected.name) return miss(`called ${quoted(call.name)}; expected ${quoted(expected.name)}`);
  if (call.parseError !== undefined) return miss(`arguments are not valid JSON (${call.parseError})`);
  const args = call.arguments;
  if (!isArgumentsObject(args)) return miss('arguments are not a JSON object');
  for (const key of Object.keys(args)) if (!Object.hasOwn(expected.arguments, key)) return miss(`extra key ${quoted(key)}`);
  for (const [key, value] of Object.entries(expected.arguments)) {
    if (!Object.hasOwn(args, key)) return miss(`missing key ${quoted(key)}`);
    if (!valueAccepted(key, args[key], value, acceptable)) return miss(`value of ${quoted(key)} differs`);
  }
  return { match: true, reason: 'exact match' };
}
