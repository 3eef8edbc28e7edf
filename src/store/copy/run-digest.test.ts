import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { canonicalJson } from '../../core/index.js';
import type { RunRecord } from '../records.js';
import { RunDigest } from './run-digest.js';

// A run's checksum (what `assay migrate` checks a copy by) must not change when the record's
// TypeScript shape does: the run is summed as it was shaped before its data checksums and versions
// moved into `provenance`.

const run: RunRecord = {
  id: 'r1',
  task: 'cases',
  taskVersion: '1',
  status: 'finished',
  createdAt: '2026-03-01T12:00:00.000Z',
  updatedAt: '2026-03-01T12:05:00.000Z',
  models: ['m'],
  settings: { temperature: 0 },
  seed: 7,
  options: {},
  engine: { concurrency: 2 },
  provenance: { datasetChecksums: { 'cases/a.jsonl': 'a'.repeat(64) }, promptVersion: 'cases/1', toolkitVersion: '0.1.0', dataDir: '/data' },
  events: [],
  judge: null,
  sampleCount: 3,
};

/** The same run written out in the shape the record had then. */
const asBefore = {
  id: 'r1',
  task: 'cases',
  taskVersion: '1',
  status: 'finished',
  createdAt: '2026-03-01T12:00:00.000Z',
  updatedAt: '2026-03-01T12:05:00.000Z',
  models: ['m'],
  settings: { temperature: 0 },
  seed: 7,
  options: {},
  datasetChecksums: { 'cases/a.jsonl': 'a'.repeat(64) },
  promptVersion: 'cases/1',
  toolkitVersion: '0.1.0',
  engine: { concurrency: 2 },
  provenance: { dataDir: '/data' },
  events: [],
  judge: null,
  sampleCount: 3,
};

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

test('a run record is summed in the shape it had before its checksums and versions moved into provenance', () => {
  assert.equal(new RunDigest(run).finish().sums.run, sha256(`${canonicalJson(asBefore)}\n`));
});

test('the checksums and versions count in the sum', () => {
  const sum = (provenance: Partial<RunRecord['provenance']>): string => new RunDigest({ ...run, provenance: { ...run.provenance, ...provenance } }).finish().sums.run;
  const base = new RunDigest(run).finish().sums.run;
  assert.notEqual(sum({ promptVersion: 'cases/2' }), base);
  assert.notEqual(sum({ toolkitVersion: '0.2.0' }), base);
  assert.notEqual(sum({ datasetChecksums: { 'cases/a.jsonl': 'b'.repeat(64) } }), base);
});
