import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createHash } from 'node:crypto';
import { isUnit, unitJobId, unitKey, type Unit } from './unit.js';

const unit: Unit = { runId: '20260301-120000-ab12', sampleId: 'q-1', modelId: 'openai:gpt-4o-mini', repeat: 0 };

test('a unit job id is deterministic, and differs when any field differs', () => {
  assert.equal(unitJobId(unit), unitJobId({ ...unit }));
  assert.match(unitJobId(unit), /^u[0-9a-f]{64}$/);
  const others = [{ ...unit, runId: 'other' }, { ...unit, sampleId: 'q-2' }, { ...unit, modelId: 'openai:gpt-4o' }, { ...unit, repeat: 1 }];
  const ids = new Set([unitJobId(unit), ...others.map(unitJobId)]);
  assert.equal(ids.size, 5);
});

test('fields cannot run into each other: ("a:b", "c") and ("a", "b:c") are two units', () => {
  assert.notEqual(unitJobId({ ...unit, sampleId: 'a:b', modelId: 'c' }), unitJobId({ ...unit, sampleId: 'a', modelId: 'b:c' }));
  assert.notEqual(unitJobId({ ...unit, sampleId: 'a","b', modelId: 'c' }), unitJobId({ ...unit, sampleId: 'a', modelId: 'b","c' }));
});

test('job data is checked before a worker trusts it', () => {
  assert.ok(isUnit(unit));
  assert.equal(isUnit({ ...unit, repeat: '0' }), false);
  assert.equal(isUnit(null), false);
  assert.equal(isUnit({ runId: 'r', sampleId: 's' }), false);
});

test('a resume’s unit: a new job id (its token hashed in), the same unit key; the first submission’s id is the key', () => {
  // The first submission's job id, as it has been since the queue existed: sha256 of the four fields.
  assert.equal(unitJobId(unit), 'u' + createHash('sha256').update(JSON.stringify([unit.runId, unit.sampleId, unit.modelId, 0])).digest('hex'));
  assert.equal(unitJobId(unit), unitKey(unit));
  const resumed = { ...unit, session: 'r1' };
  assert.notEqual(unitJobId(resumed), unitJobId(unit));
  assert.notEqual(unitJobId(resumed), unitJobId({ ...unit, session: 'r2' }));
  assert.equal(unitKey(resumed), unitKey(unit));
  assert.ok(isUnit(resumed));
  assert.equal(isUnit({ ...unit, session: 1 }), false);
});
