import { pythonJsonDumps } from './python-json.js';

/** The sentence the data uses for "no alternative values: only the ground truth passes". */
export const ONLY_GROUND_TRUTH = 'Only ground truth is allowed.';

/**
 * An item's `acceptable_arguments`, parsed:
 * - `none`: the field is null (no alternatives);
 * - `only-ground-truth`: the sentence "Only ground truth is allowed.";
 * - `rule`: another sentence for the judge (e.g. "The date should be expressed as 'tomorrow'…"):
 *   it gives exact match no alternative value;
 * - `alternatives`: per argument, the other values that also pass. The data writes a list or a
 *   single value; a single value becomes a one-element list. Some single values are themselves
 *   instructions ("Only YYYY-MM-DD format is allowed."); they are kept as values, as upstream
 *   does — a model argument equal to such a sentence is not a realistic risk.
 */
export type AcceptableArguments =
  | { readonly kind: 'none' }
  | { readonly kind: 'only-ground-truth' }
  | { readonly kind: 'rule'; readonly text: string }
  | { readonly kind: 'alternatives'; readonly values: Readonly<Record<string, readonly unknown[]>> };

/** What the data files hold in `acceptable_arguments`. */
export type ShippedAcceptableArguments = string | null | Readonly<Record<string, unknown>>;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function alternatives(object: Readonly<Record<string, unknown>>): AcceptableArguments {
  // fromEntries (not assignment) so that a key such as "__proto__" stays an ordinary property.
  return { kind: 'alternatives', values: Object.fromEntries(Object.entries(object).map(([key, v]) => [key, Array.isArray(v) ? v : [v]])) };
}

/** Parses a shipped `acceptable_arguments` value (never throws: text that is not a JSON object is a rule). */
export function parseAcceptableArguments(shipped: ShippedAcceptableArguments): AcceptableArguments {
  if (shipped === null) return { kind: 'none' };
  if (isRecord(shipped)) return alternatives(shipped);
  const text = shipped.trim();
  if (text === '') return { kind: 'none' };
  if (text === ONLY_GROUND_TRUTH) return { kind: 'only-ground-truth' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    return { kind: 'rule', text };
  }
  return isRecord(parsed) ? alternatives(parsed) : { kind: 'rule', text };
}

/**
 * The value upstream puts in its request and shows the judge: the shipped string as is, null, or
 * (dialog rows that hold an object) that object written by Python's `json.dumps`.
 */
export function acceptableArgumentsText(shipped: ShippedAcceptableArguments): string | null {
  if (shipped === null || typeof shipped === 'string') return shipped;
  return pythonJsonDumps(shipped);
}
