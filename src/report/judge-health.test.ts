import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reasksOf } from './judge-health.js';

test('re-asks are the judge calls labelled step#k, per model; unlabelled calls make them unknown', () => {
  const steps = [
    { model: 'a', step: 'verdict', calls: 10 },
    { model: 'a', step: 'verdict#2', calls: 3 },
    { model: 'a', step: 'verdict/repeat-2#3', calls: 1 },
    { model: 'b', step: 'claims', calls: 4 },
    { model: 'b', step: 'claims#2', calls: 2 },
    { model: 'b', step: 'coverage/questions', calls: 4 },
    { model: 'c', step: null, calls: 5 },
  ];
  assert.equal(reasksOf(steps, 'a'), 4);
  assert.equal(reasksOf(steps, 'b'), 2);
  assert.equal(reasksOf(steps, 'c'), null);
  assert.equal(reasksOf(steps, 'd'), 0);
});
