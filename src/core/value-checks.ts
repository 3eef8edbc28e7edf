// Checks of plain values that refuse exactly what the zod schemas they mirror refuse, with the
// first message zod gives (its English locale). They exist so that what every run checks — its
// engine settings — does not load zod (~14 MB and ~80 ms to load, and its schemas to build):
// each use is held to its schema by a test that runs both on the same values.

/** The first problem of a value: where (a path inside it) and zod's message. */
export interface ValueIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** A check: undefined when the value passes, else its first problem. */
export type ValueCheck = (value: unknown) => ValueIssue | undefined;

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const MIN_SAFE = Number.MIN_SAFE_INTEGER;

const problem = (message: string): ValueIssue => ({ path: [], message });

/** What zod calls a value it did not expect (`util.parsedType`, then the locale's type names). */
export function receivedName(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? 'number' : String(value);
  if (typeof value === 'object') {
    if (value === null) return 'null';
    if (Array.isArray(value)) return 'array';
    if (Object.getPrototypeOf(value) !== Object.prototype && 'constructor' in value && value.constructor) return (value.constructor as { name: string }).name;
  }
  return typeof value;
}

const wrongType = (expected: string, value: unknown): ValueIssue => problem(`Invalid input: expected ${expected}, received ${receivedName(value)}`);

/** `z.number()`, with `.min(min)` when given (`.nonnegative()` is `min(0)`): a finite number. */
export function numberCheck(min?: number): ValueCheck {
  return (value) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return wrongType('number', value);
    if (min !== undefined && !(value >= min)) return problem(`Too small: expected number to be >=${min}`);
    return undefined;
  };
}

/** `z.int()` or `z.number().int()`, with `.min(min)` when given: a safe integer, then the bound. */
export function intCheck(min?: number): ValueCheck {
  const bound = numberCheck(min);
  return (value) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return wrongType('number', value);
    if (!Number.isInteger(value)) return wrongType('int', value);
    if (value > MAX_SAFE) return problem(`Too big: expected int to be <=${MAX_SAFE}`);
    if (value < MIN_SAFE) return problem(`Too small: expected int to be >=${MIN_SAFE}`);
    return bound(value);
  };
}

/** `z.boolean()`. */
export const booleanCheck: ValueCheck = (value) => (typeof value === 'boolean' ? undefined : wrongType('boolean', value));

/** `z.string()`. */
export const stringCheck: ValueCheck = (value) => (typeof value === 'string' ? undefined : wrongType('string', value));

/** `.optional()`: undefined passes. */
export const optionalCheck = (check: ValueCheck): ValueCheck => (value) => (value === undefined ? undefined : check(value));

const inside = (key: PropertyKey, issue: ValueIssue | undefined): ValueIssue | undefined => (issue === undefined ? undefined : { path: [key, ...issue.path], message: issue.message });

/** `z.object(shape)` (unknown keys stripped, not refused): any non-array object, each field checked in the shape's order. */
export function objectCheck(fields: Readonly<Record<string, ValueCheck>>): ValueCheck {
  const entries = Object.entries(fields);
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return wrongType('object', value);
    for (const [key, check] of entries) {
      const issue = inside(key, check((value as Record<string, unknown>)[key]));
      if (issue) return issue;
    }
    return undefined;
  };
}

/** zod's `isPlainObject`: what a record accepts (an object literal or one without a prototype, not a Date or a Map). */
function isPlainObject(value: unknown): value is Record<PropertyKey, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const ctor: unknown = (value as { constructor?: unknown }).constructor;
  if (ctor === undefined || typeof ctor !== 'function') return true;
  const prototype: unknown = (ctor as { prototype?: unknown }).prototype;
  if (typeof prototype !== 'object' || prototype === null || Array.isArray(prototype)) return false;
  return Object.prototype.hasOwnProperty.call(prototype, 'isPrototypeOf');
}

/** `z.record(z.string(), valueSchema)`: a plain object whose own enumerable keys are strings, each value checked. */
export function recordCheck(check: ValueCheck): ValueCheck {
  return (value) => {
    if (!isPlainObject(value)) return wrongType('record', value);
    for (const key of Reflect.ownKeys(value)) {
      if (key === '__proto__' || !Object.prototype.propertyIsEnumerable.call(value, key)) continue;
      if (typeof key !== 'string') return { path: [key], message: 'Invalid key in record' };
      const issue = inside(key, check(value[key]));
      if (issue) return issue;
    }
    return undefined;
  };
}
