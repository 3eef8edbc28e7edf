import { isJsonObject as isObject } from '../core/json-object.js';
import type { FailFastStop, ModifiedDataRecord, RecordedModelRecord, RunEvent, SuiteMembership } from './records.js';

// The typed parts of a run record read from their stored JSON without zod: every run appends
// events to its record (so reads it back), and loading zod for that costs a run ~14 MB and ~80
// ms. Each read gives exactly what its schema in run-parts.ts (the declaration, which the types
// are inferred from) gives for a JSON value: the known keys only, in the schema's order, a
// readonly list frozen; undefined where the schema refuses the value (run-part-reads.test.ts
// holds each to its schema, value by value).

type Json = Record<string, unknown>;

const isString = (value: unknown): value is string => typeof value === 'string';
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const optionalString = (value: unknown): boolean => value === undefined || isString(value);

/** `suiteMembershipSchema`: `{id, suite, entry, entries}`. */
export function suiteMembershipOf(value: unknown): SuiteMembership | undefined {
  if (!isObject(value)) return undefined;
  const { id, suite, entry, entries } = value;
  if (!isString(id) || !isString(suite) || !isNumber(entry) || !isNumber(entries)) return undefined;
  return { id, suite, entry, entries };
}

/** `modifiedDataSchema`: `{file, pinned, actual}`. */
export function modifiedDataOf(value: unknown): ModifiedDataRecord | undefined {
  if (!isObject(value)) return undefined;
  const { file, pinned, actual } = value;
  if (!isString(file) || !isString(pinned) || !isString(actual)) return undefined;
  return { file, pinned, actual };
}

/** `recordedModelSchema`: `{declaration, hash}`, the declaration a copy of the stored object (its `__proto__` key left out, as a record's is). */
export function recordedModelOf(value: unknown): RecordedModelRecord | undefined {
  if (!isObject(value)) return undefined;
  const { declaration, hash } = value;
  if (!isObject(declaration) || !isString(hash)) return undefined;
  const copy: Json = {};
  for (const key of Object.keys(declaration)) if (key !== '__proto__') copy[key] = declaration[key];
  return { declaration: copy, hash };
}

const ROLES: ReadonlySet<unknown> = new Set(['test', 'judge', 'user']);

/** `failFastStopSchema`: `{actor, role, kind, message, count}`. */
export function failFastStopOf(value: unknown): FailFastStop | undefined {
  if (!isObject(value)) return undefined;
  const { actor, role, kind, message, count } = value;
  if (!isString(actor) || !ROLES.has(role) || !isString(kind) || !isString(message) || !isNumber(count)) return undefined;
  return { actor, role: role as FailFastStop['role'], kind, message, count };
}

/** A list of stops (`.readonly()`: frozen), or undefined when it is not a list or one of them is refused. */
function stopsOf(value: unknown): readonly FailFastStop[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const stops: FailFastStop[] = [];
  for (const item of value) {
    const stop = failFastStopOf(item);
    if (stop === undefined) return undefined;
    stops.push(stop);
  }
  return Object.freeze(stops);
}

const STATUSES: ReadonlySet<unknown> = new Set(['running', 'finished', 'interrupted', 'failed']);

/** `runEventSchema`: one of the four events by its `type`, with `at` when it has one. */
export function runEventOf(value: unknown): RunEvent | undefined {
  if (!isObject(value)) return undefined;
  const { type, at } = value;
  if (!optionalString(at)) return undefined;
  const when = at === undefined ? {} : { at: at as string };
  switch (type) {
    case 'submitted': {
      const { queue, session } = value;
      if (!isString(queue) || !optionalString(session)) return undefined;
      return { type, ...when, queue, ...(session === undefined ? {} : { session: session as string }) };
    }
    case 'resumed':
      return { type, ...when };
    case 'ended': {
      const { status } = value;
      const failFastStops = stopsOf(value['failFastStops']);
      if (!STATUSES.has(status) || failFastStops === undefined) return undefined;
      return { type, ...when, status: status as Extract<RunEvent, { type: 'ended' }>['status'], failFastStops };
    }
    case 'failFast': {
      const stops = stopsOf(value['stops']);
      return stops === undefined ? undefined : { type, ...when, stops };
    }
    default:
      return undefined;
  }
}
