import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StoredGateOutcome, SuiteRunRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import type { SuiteRunResult } from './run-suite.js';
import { recordPassed, recordSuiteRun, resultOfRecord } from './stored-gates.js';

const gate = (kind: StoredGateOutcome['kind'], outcome: StoredGateOutcome['outcome']): StoredGateOutcome => ({
  kind, entry: 'cases', task: 'cases', model: 'bot', metric: 'pass_rate', unit: 'share', rule: 'min 50.0%', outcome, value: outcome === 'inconclusive' ? null : 0.75, interval: null, relation: 'none', reason: outcome,
});

const result: SuiteRunResult = {
  suiteRun: 'suite-20261128-000000-abcd',
  suite: 'release',
  runs: [{ entry: 0, task: 'cases', run: 'r1', status: 'finished' }],
  results: [gate('threshold', 'pass'), gate('regression', 'inconclusive')],
  sampleErrors: 0,
  interrupted: false,
  exitCode: 0,
};

/** A store that only keeps what saveSuiteRun was given. */
function recordingStore(): { store: Store; saved: SuiteRunRecord[] } {
  const saved: SuiteRunRecord[] = [];
  return { store: { saveSuiteRun: async (r: SuiteRunRecord) => void saved.push(r) } as unknown as Store, saved };
}

test('recordSuiteRun: an ended suite run recorded with when and how strict; resultOfRecord gives back what run --suite printed', async () => {
  const { store, saved } = recordingStore();
  const record = await recordSuiteRun(store, result, true, new Date('2026-11-28T00:10:00Z'));
  assert.deepEqual(saved, [record]);
  assert.equal(record?.decidedAt, '2026-11-28T00:10:00.000Z');
  assert.equal(record?.strict, true);
  assert.deepEqual(resultOfRecord(record as SuiteRunRecord), { ...result, decidedAt: '2026-11-28T00:10:00.000Z' });
});

test('recordSuiteRun: an interrupted suite run records nothing (its resume decides)', async () => {
  const { store, saved } = recordingStore();
  assert.equal(await recordSuiteRun(store, { ...result, interrupted: true, exitCode: 130 }, false), undefined);
  assert.deepEqual(saved, []);
});

test('recordPassed: no gate failed, every run finished; under strict no threshold gate inconclusive (a regression gate without a baseline does not count)', () => {
  const record = (gates: StoredGateOutcome[], more: Partial<SuiteRunRecord> = {}): SuiteRunRecord => ({
    id: 's', suite: 'release', decidedAt: 't', runs: [{ entry: 0, task: 'cases', run: 'r1', status: 'finished' }], gates, strict: false, sampleErrors: 0, interrupted: false, exitCode: 0, ...more,
  });
  assert.equal(recordPassed(record([gate('threshold', 'pass'), gate('regression', 'pass')])), true);
  assert.equal(recordPassed(record([gate('threshold', 'pass'), gate('regression', 'fail')])), false, 'a regression is no baseline');
  assert.equal(recordPassed(record([gate('threshold', 'fail')])), false);
  assert.equal(recordPassed(record([gate('threshold', 'inconclusive')])), true, 'not strict: inconclusive passes');
  assert.equal(recordPassed(record([gate('threshold', 'inconclusive')], { strict: true })), false);
  assert.equal(recordPassed(record([gate('threshold', 'pass'), gate('regression', 'inconclusive')], { strict: true })), true);
  assert.equal(recordPassed(record([gate('threshold', 'pass')], { runs: [{ entry: 0, task: 'cases', run: 'r1', status: 'interrupted' }] })), false);
  assert.equal(recordPassed(record([gate('threshold', 'pass')], { interrupted: true })), false);
});
