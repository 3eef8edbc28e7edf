import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertUniqueIds, assertUniqueSampleIds, buildSamples, sampleAt, sampleFacts, sampleIds, samplesBetween, type Sample } from './sample.js';

const make = (index: number): Sample => ({ id: `s${index}`, input: [{ role: 'user', content: `question ${index}` }], target: index % 2, metadata: { index } });

test('buildSamples: read by position, built each time it is read, iterated in order; outside the list undefined', () => {
  let built = 0;
  const list = buildSamples(5, (i) => (built++, make(i)));
  assert.equal(list.length, 5);
  assert.equal(built, 0, 'nothing is built before it is read');
  assert.deepEqual(list.at(3), make(3));
  assert.equal(built, 1);
  assert.notEqual(list.at(3), list.at(3), 'not kept: each read builds it again');
  assert.deepEqual(list.at(3), list.at(3));
  for (const outside of [-1, 5, 1.5, Number.NaN]) assert.equal(list.at(outside), undefined, String(outside));
  assert.deepEqual([...list].map((s) => s.id), ['s0', 's1', 's2', 's3', 's4']);
});

test('an array is a sample list: the same helpers read it', () => {
  const array = [make(0), make(1), make(2)];
  assert.equal(sampleAt(array, 2), array[2]);
  assert.deepEqual(samplesBetween(array, 1, 10), [array[1], array[2]]);
  assert.deepEqual(samplesBetween(buildSamples(3, make), 0, 2), [make(0), make(1)]);
  assert.deepEqual(samplesBetween(array, 3, 5), []);
  assert.throws(() => sampleAt(array, 3), /sample 3 asked of a list of 3/);
});

test('sampleFacts: id, target and metadata, not the input', () => {
  const sample: Sample = { ...make(4), tools: [{ name: 't', description: 'd', parameters: {} }], hints: { kind: 'yes-no', query: 'q' } };
  assert.deepEqual(sampleFacts(sample), { id: 's4', target: 0, metadata: { index: 4 } });
});

test('assertUniqueSampleIds reads any iterable of samples, a list built on demand too', () => {
  assert.doesNotThrow(() => assertUniqueSampleIds(buildSamples(100, make), 'task t'));
  assert.throws(() => assertUniqueSampleIds(buildSamples(3, (i) => make(i === 2 ? 0 : i)), 'task t'), /task t: sample id "s0" occurs twice/);
});

test('buildSamples builds a sample at every read and keeps none: equal samples, never the same object', () => {
  const built: number[] = [];
  const list = buildSamples(10, (i) => (built.push(i), make(i)));
  assert.deepEqual(list.at(5), make(5));
  assert.deepEqual(built, [5], 'only the sample read');
  assert.notEqual(list.at(5), list.at(5));
  assert.deepEqual(built, [5, 5, 5]);
  assert.deepEqual([...list], Array.from({ length: 10 }, (_, i) => make(i)));
  for (const outside of [-1, 10, 1.5]) assert.equal(list.at(outside), undefined, String(outside));
});

test('sampleIds reads idAt when the list has it (no sample built), else each sample', () => {
  let built = 0;
  const list = buildSamples(4, (i) => (built++, make(i)), { idAt: (i) => `s${i}` });
  assert.deepEqual([...sampleIds(list)], ['s0', 's1', 's2', 's3']);
  assert.equal(built, 0);
  assert.deepEqual([...sampleIds([make(7), make(8)])], ['s7', 's8']);
  assert.throws(() => assertUniqueIds(sampleIds(buildSamples(3, make, { idAt: (i) => (i === 2 ? 's0' : `s${i}`) })), 'task t'), /task t: sample id "s0" occurs twice/);
});
