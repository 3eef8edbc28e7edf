import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { z } from 'zod';
import { failFastStopOf, modifiedDataOf, recordedModelOf, runEventOf, suiteMembershipOf } from './run-part-reads.js';
import { failFastStopSchema, modifiedDataSchema, recordedModelSchema, runEventSchema, suiteMembershipSchema } from './run-parts.js';

// Each plain read of a run record's part gives what its schema gives, for any JSON value the
// record may hold: the same values refused; of the others, the same object (its keys in the
// same order, so a record rewritten with an appended event keeps its bytes) with its lists as
// frozen as the schema's.

const JSON_VALUES: readonly unknown[] = [null, true, false, 0, 1, -1, 1.5, 1e300, '', 'x', 'test', 'judge', 'user', 'finished', [], [1], {}, { a: 1 }];

/** `value` with each key removed, each key set to each JSON value, a key added, and the keys reversed. */
function variants(value: Record<string, unknown>): unknown[] {
  const out: unknown[] = [value, { ...value, extra: 1 }, Object.fromEntries(Object.entries(value).reverse())];
  for (const key of Object.keys(value)) {
    const { [key]: _left, ...without } = value;
    out.push(without);
    for (const other of JSON_VALUES) out.push({ ...value, [key]: other });
  }
  return out;
}

/** The test's full value has every field of the schema, so a field added to the schema fails here until its read (and this value) has it. */
function everyField(schema: z.ZodObject, full: Record<string, unknown>): Record<string, unknown> {
  assert.deepEqual(Object.keys(full), Object.keys(schema.shape));
  return full;
}

function holdsToSchema(read: (value: unknown) => unknown, schema: z.ZodType, values: readonly unknown[]): void {
  let passed = 0;
  for (const value of [...JSON_VALUES, ...values]) {
    const text = JSON.stringify(value);
    const parsed = schema.safeParse(JSON.parse(text));
    const got = read(JSON.parse(text));
    if (!parsed.success) {
      assert.equal(got, undefined, text);
      continue;
    }
    passed++;
    assert.deepEqual(got, parsed.data, text);
    assert.equal(JSON.stringify(got), JSON.stringify(parsed.data), text);
    assert.deepEqual(frozenLists(got), frozenLists(parsed.data), text);
  }
  assert.ok(passed > 0);
}

/** Which lists inside a value are frozen, by path. */
function frozenLists(value: unknown, at = ''): string[] {
  if (value === null || typeof value !== 'object') return [];
  const own = Array.isArray(value) ? [`${at}:${Object.isFrozen(value)}`] : [];
  return [...own, ...Object.entries(value).flatMap(([key, member]) => frozenLists(member, `${at}.${key}`))];
}

const STOP = { actor: 'openai:m', role: 'test', kind: 'auth', message: '401', count: 1 };

test('suite membership', () => {
  const full = everyField(suiteMembershipSchema, { id: 'suite-1', suite: 'nightly', entry: 0, entries: 2 });
  holdsToSchema(suiteMembershipOf, suiteMembershipSchema, variants(full));
});

test('modified data', () => {
  const full = everyField(modifiedDataSchema, { file: 'a.json', pinned: 'aa', actual: 'bb' });
  holdsToSchema(modifiedDataOf, modifiedDataSchema, variants(full));
});

test('a recorded declaration: the declaration copied as it was stored (not its __proto__ key)', () => {
  const declaration = { kind: 'provider', provider: 'openai', model: 'm', 2: 'numbered', params: { temperature: 0 } };
  const full = everyField(recordedModelSchema, { declaration, hash: 'abc' });
  const stored = [...variants(full), JSON.parse('{"declaration": {"__proto__": {"x": 1}, "kind": "exec"}, "hash": "h"}')];
  holdsToSchema(recordedModelOf, recordedModelSchema, stored);
});

test('a fail-fast stop', () => {
  const full = everyField(failFastStopSchema, STOP);
  holdsToSchema(failFastStopOf, failFastStopSchema, variants(full));
});

test('every kind of event, and events of no known kind', () => {
  const events = [
    { type: 'submitted', at: '2026-11-28T00:00:00Z', queue: 'q', session: 's' },
    { type: 'submitted', queue: 'q' },
    { type: 'resumed', at: '2026-11-28T00:00:00Z' },
    { type: 'resumed' },
    { type: 'ended', at: '2026-11-28T00:00:00Z', status: 'interrupted', failFastStops: [STOP, { ...STOP, role: 'judge', extra: 1 }] },
    { type: 'ended', status: 'finished', failFastStops: [] },
    { type: 'failFast', at: '2026-11-28T00:00:00Z', stops: [STOP] },
    { type: 'failFast', stops: [STOP, { ...STOP, role: 'nobody' }] },
    { type: 'other', at: 'x' },
  ];
  // The first event of each kind has all its fields.
  assert.deepEqual(
    runEventSchema.options.map((option) => Object.keys(option.shape)),
    ['submitted', 'resumed', 'ended', 'failFast'].map((type) => Object.keys(events.find((event) => event.type === type) ?? {})),
  );
  holdsToSchema(runEventOf, runEventSchema, events.flatMap((event) => variants(event)));
});
