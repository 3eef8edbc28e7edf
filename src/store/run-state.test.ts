import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunRecord, RunStatus } from './records.js';
import { runState, type StoredLease } from './run-state.js';

const run = (status: RunStatus): RunRecord => ({
  id: 'r',
  task: 't',
  taskVersion: '1',
  status,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  models: ['m'],
  settings: {},
  seed: 0,
  options: {},
  engine: {}, provenance: { datasetChecksums: {}, promptVersion: 'p', toolkitVersion: '0' }, events: [],
  judge: null,
});

const lease = (live: boolean): StoredLease => ({
  runId: 'r',
  holder: { id: 'h', pid: 1, host: 'x' },
  acquiredAt: '2026-01-01T00:00:00.000Z',
  heartbeatAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-01T00:00:30.000Z',
  live,
});

test('stored running with a live lease is running; with an expired lease or none, stale', () => {
  assert.equal(runState(run('running'), lease(true)), 'running');
  assert.equal(runState(run('running'), lease(false)), 'stale');
  assert.equal(runState(run('running'), undefined), 'stale');
});

test('a run that ended shows how it ended, unless a process holds it again (a resume preparing)', () => {
  for (const status of ['finished', 'interrupted', 'failed'] as const) {
    assert.equal(runState(run(status), undefined), status);
    assert.equal(runState(run(status), lease(false)), status);
    assert.equal(runState(run(status), lease(true)), 'running');
  }
});

test('a queued run stored as running is running without a lease (its workers hold its units); ended, it is what it says', () => {
  const queued = (status: RunStatus): RunRecord => ({ ...run(status), events: [{ type: 'submitted', queue: 'units' }] });
  assert.equal(runState(queued('running'), undefined), 'running');
  assert.equal(runState(queued('finished'), undefined), 'finished');
  assert.equal(runState(run('running'), undefined), 'stale');
});
