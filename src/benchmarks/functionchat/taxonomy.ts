import type { ToolCall, ToolSpec } from '../../core/index.js';
import type { AcceptableArguments, GroundTruthCall } from '../../datasets/functionchat/index.js';
import { exactMatch, isArgumentsObject, valueAccepted } from './exact-match.js';
import { topLevelLiterals } from './raw-arguments.js';

/**
 * Error categories of a tool-call item that is not an exact match (pure and deterministic,
 * computed beside the verdict). An item may have several:
 * - `no_call`: the output has no tool call;
 * - `multiple_calls`: more than one call (the first one is analysed);
 * - `hallucinated_function`: the call names a function that was not offered;
 * - `wrong_function`: the call names another offered function than the ground truth's;
 * - `malformed_arguments`: the arguments are not valid JSON, or not a JSON object;
 * and, when the function is the right one and its arguments are an object:
 * - `missing_required_key`: a key of the ground truth, or one the tool's schema requires, is absent;
 * - `extra_key`: a key the ground truth does not have;
 * - `wrong_type`: a value whose JSON type is not the schema's (`integer` also rejects `3.0`);
 * - `wrong_value`: a value of the right type that is neither the ground truth's nor acceptable.
 */
export const ERROR_CATEGORIES = [
  'no_call',
  'multiple_calls',
  'hallucinated_function',
  'wrong_function',
  'malformed_arguments',
  'missing_required_key',
  'extra_key',
  'wrong_type',
  'wrong_value',
] as const;
export type ErrorCategory = (typeof ERROR_CATEGORIES)[number];

export interface CallDiagnosis {
  /** In the order of {@link ERROR_CATEGORIES}; empty for an exact match. */
  readonly errors: readonly ErrorCategory[];
  /** The argument keys behind the key-level categories (only the non-empty lists). */
  readonly keys: Readonly<Partial<Record<'missing' | 'extra' | 'wrong_type' | 'wrong_value', readonly string[]>>>;
}

export interface CallCase {
  readonly expected: GroundTruthCall;
  readonly acceptable: AcceptableArguments;
  /** The tools the model was offered. */
  readonly tools: readonly ToolSpec[];
  readonly calls: readonly ToolCall[];
}

const record = (value: unknown): Record<string, unknown> => (isArgumentsObject(value) ? value : {});

/**
 * Whether `value` has the JSON Schema type `type` (a name or a list of names). `integer` needs an
 * integral number written without a fraction or exponent (`literal` is its source text). Unknown
 * or absent types accept anything: the taxonomy only flags what the schema states.
 */
export function matchesSchemaType(value: unknown, type: unknown, literal?: string): boolean {
  if (Array.isArray(type)) return type.some((t) => matchesSchemaType(value, t, literal));
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) && (literal === undefined || !/[.eE]/.test(literal));
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isArgumentsObject(value);
    case 'null':
      return value === null;
    default:
      return true;
  }
}

/** The error categories of a call item's output; none when it is an exact match. */
export function diagnoseCall(c: CallCase): CallDiagnosis {
  if (exactMatch(c.expected, c.acceptable, c.calls).match) return { errors: [], keys: {} };
  const found = new Set<ErrorCategory>();
  const keys: Record<string, string[]> = {};
  const note = (category: ErrorCategory, list: string, key: string): void => {
    found.add(category);
    (keys[list] ??= []).push(key);
  };
  const call = c.calls[0];
  if (!call) return { errors: ['no_call'], keys: {} };
  if (c.calls.length > 1) found.add('multiple_calls');
  const tool = c.tools.find((t) => t.name === call.name);
  if (!tool) found.add('hallucinated_function');
  else if (call.name !== c.expected.name) found.add('wrong_function');
  const args = call.arguments;
  if (call.parseError !== undefined || !isArgumentsObject(args)) found.add('malformed_arguments');
  else if (tool && call.name === c.expected.name) {
    const properties = record(tool.parameters['properties']);
    const required = Array.isArray(tool.parameters['required']) ? (tool.parameters['required'] as unknown[]).filter((k): k is string => typeof k === 'string') : [];
    const literals = topLevelLiterals(call.rawArguments);
    const needed = [...new Set([...Object.keys(c.expected.arguments), ...required])];
    for (const key of needed) if (!Object.hasOwn(args, key)) note('missing_required_key', 'missing', key);
    for (const [key, value] of Object.entries(args)) {
      if (!Object.hasOwn(c.expected.arguments, key)) note('extra_key', 'extra', key);
      const schemaType = record(properties[key])['type'];
      if (!matchesSchemaType(value, schemaType, literals?.get(key))) note('wrong_type', 'wrong_type', key);
      else if (Object.hasOwn(c.expected.arguments, key) && !valueAccepted(key, value, c.expected.arguments[key], c.acceptable)) note('wrong_value', 'wrong_value', key);
    }
  }
  return { errors: ERROR_CATEGORIES.filter((e) => found.has(e)), keys };
}
