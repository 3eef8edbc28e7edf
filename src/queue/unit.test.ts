import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isUnit, unitJobId, type Unit } from './unit.js';

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
