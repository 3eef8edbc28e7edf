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
  holdsToSchema(suiteMembershipOf, suiteMembershipSchema, variants({ id: 'suite-1', suite: 'nightly', entry: 0, entries: 2 }));
});

test('modified data', () => {
  holdsToSchema(modifiedDataOf, modifiedDataSchema, variants({ file: 'a.json', pinned: 'aa', actual: 'bb' }));
});

test('a recorded declaration: the declaration copied as it was stored (not its __proto__ key)', () => {
  const declaration = { kind: 'provider', provider: 'openai', model: 'm', 2: 'numbered', params: { temperature: 0 } };
  const stored = [...variants({ declaration, hash: 'abc' }), JSON.parse('{"declaration": {"__proto__": {"x": 1}, "kind": "exec"}, "hash": "h"}')];
  holdsToSchema(recordedModelOf, recordedModelSchema, stored);
});

test('a fail-fast stop', () => {
  holdsToSchema(failFastStopOf, failFastStopSchema, variants(STOP));
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
  holdsToSchema(runEventOf, runEventSchema, events.flatMap((event) => variants(event)));
});
