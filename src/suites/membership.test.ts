import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunRecord, SuiteMembership } from '../store/records.js';
import { membershipOf, newSuiteRunId, startedBefore, suiteRunsIn } from './membership.js';

const run = (id: string, createdAt: string, suiteRun?: SuiteMembership): RunRecord => ({ id, task: 'cases', createdAt, engine: {}, provenance: {}, events: [], ...(suiteRun ? { suiteRun } : {}) }) as unknown as RunRecord;

test('newSuiteRunId: suite-YYYYMMDD-HHMMSS-xxxx from the time given', () => {
  assert.match(newSuiteRunId(new Date('2026-11-27T23:05:09Z')), /^suite-20261127-230509-[0-9a-f]{4}$/);
});

test('membershipOf: the run\'s recorded membership (one of another shape is left out by the store\'s codec: run-record-codec.test.ts)', () => {
  assert.deepEqual(membershipOf(run('a', 't', { id: 's1', suite: 'release', entry: 1, entries: 3 })), { id: 's1', suite: 'release', entry: 1, entries: 3 });
  assert.equal(membershipOf(run('a', 't')), undefined);
});

test('suiteRunsIn: member runs grouped by suite run, newest suite run first, the newest run of an entry standing for it', () => {
  const runs = [
    run('r1', '2026-01-01T00:00:01Z', { id: 'suite-20260101-000000-aaaa', suite: 'release', entry: 0, entries: 2 }),
    run('r2', '2026-01-01T00:00:02Z', { id: 'suite-20260101-000000-aaaa', suite: 'release', entry: 1, entries: 2 }),
    run('plain', '2026-01-01T00:00:03Z'),
    run('r3', '2026-01-02T00:00:01Z', { id: 'suite-20260102-000000-bbbb', suite: 'release', entry: 0, entries: 2 }),
    run('r3again', '2026-01-02T00:00:05Z', { id: 'suite-20260102-000000-bbbb', suite: 'release', entry: 0, entries: 2 }),
  ];
  const grouped = suiteRunsIn(runs);
  assert.deepEqual([...grouped.keys()], ['suite-20260102-000000-bbbb', 'suite-20260101-000000-aaaa']);
  assert.deepEqual([...(grouped.get('suite-20260101-000000-aaaa')?.members.entries() ?? [])].map(([i, r]) => [i, r.id]).sort(), [[0, 'r1'], [1, 'r2']]);
  assert.equal(grouped.get('suite-20260102-000000-bbbb')?.members.get(0)?.id, 'r3again');
  assert.equal(grouped.get('suite-20260102-000000-bbbb')?.members.get(1), undefined);
});

test('suiteRunsIn: suite runs started within one second are ordered by when their first run was created, not by their ids\' random suffix', () => {
  const runs = [
    run('first', '2026-01-01T00:00:00.100Z', { id: 'suite-20260101-000000-ffff', suite: 'release', entry: 0, entries: 1 }),
    run('second', '2026-01-01T00:00:00.900Z', { id: 'suite-20260101-000000-0000', suite: 'release', entry: 0, entries: 1 }),
    // The first suite run's entry started again later (a suite resume): it still started first.
    run('first-again', '2026-01-01T00:00:01.500Z', { id: 'suite-20260101-000000-ffff', suite: 'release', entry: 0, entries: 1 }),
  ];
  const grouped = suiteRunsIn(runs);
  assert.deepEqual([...grouped.keys()], ['suite-20260101-000000-0000', 'suite-20260101-000000-ffff']);
  const first = grouped.get('suite-20260101-000000-ffff');
  assert.equal(first?.startedAt, '2026-01-01T00:00:00.100Z');
  assert.equal(first?.members.get(0)?.id, 'first-again');
  const second = { id: 'suite-20260101-000000-0000', startedAt: grouped.get('suite-20260101-000000-0000')?.startedAt ?? '' };
  assert.equal(startedBefore({ id: 'suite-20260101-000000-ffff', startedAt: first?.startedAt ?? '' }, second), true);
  assert.equal(startedBefore(second, { id: 'suite-20260101-000000-ffff', startedAt: first?.startedAt ?? '' }), false);
});
