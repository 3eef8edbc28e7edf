import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InputError } from '../core/index.js';
import type { ModelProvider } from '../models/spec.js';
import { checkRecordedOutputs, someIds } from './recorded-outputs.js';

const provider = (sampleIds?: readonly string[]): ModelProvider => ({
  specVersion: 'v1',
  id: 'replay:out.jsonl',
  cacheable: false,
  ...(sampleIds ? { sampleIds } : {}),
  generate: () => Promise.reject(new Error('not called by the check')),
});
const run = ['s1', 's2', 's3', 's4', 's5'];
const scope = { task: 'metatool/similar', seed: 3, sampleIds: run, toCall: run };

const refusal = (expected: RegExp) => (error: unknown) => {
  assert.ok(error instanceof InputError);
  assert.match(error.message, expected);
  assert.doesNotMatch(error.message, /\n/, 'one line');
  return true;
};

test('ids are named up to three, the rest counted, each quoted as JSON', () => {
  assert.equal(someIds(['a']), '"a"');
  assert.equal(someIds(['a', 'b', 'c']), '"a", "b", "c"');
  assert.equal(someIds(['a', 'b', 'c', 'd', 'e']), '"a", "b", "c" and 2 more');
  assert.equal(someIds(['line\nbreak']), '"line\\nbreak"');
  assert.equal(someIds(['x'.repeat(100)]), JSON.stringify(`${'x'.repeat(57)}...`));
});

test('a provider without a fixed set of outputs is not checked', () => {
  assert.deepEqual(checkRecordedOutputs(provider(), scope), []);
});

test('a file with an output for every sample passes without a word', () => {
  assert.deepEqual(checkRecordedOutputs(provider(['s5', 's4', 's3', 's2', 's1']), scope), []);
});

test('an empty file is refused, naming the file and how to list the sample ids', () => {
  assert.throws(() => checkRecordedOutputs(provider([]), scope), refusal(/^replay:out\.jsonl holds no outputs \(the file is empty\), so none of the 5 samples of metatool\/similar could be scored; "assay samples metatool\/similar --seed 3"/));
});

test('a file that matches no sample is refused, naming the first ids and counting the rest', () => {
  const ids = ['similar/A/0', 'similar/B/0', 'similar/C/0', 'similar/D/0'];
  assert.throws(
    () => checkRecordedOutputs(provider(ids), scope),
    refusal(/^replay:out\.jsonl matches none of the 5 samples of metatool\/similar with seed 3: its 4 id\(s\) \("similar\/A\/0", "similar\/B\/0", "similar\/C\/0" and 1 more\) are not sample ids of this run; "assay samples/),
  );
});

test('a partial match runs, with warnings naming the unknown ids and counting the missing samples', () => {
  const warnings = checkRecordedOutputs(provider(['s1', 's2', 'x1', 'x2']), scope);
  assert.equal(warnings.length, 2);
  assert.match(warnings[0] as string, /^replay:out\.jsonl has 2 output\(s\) for ids that are not samples of this run \("x1", "x2"\); they are ignored$/);
  assert.match(warnings[1] as string, /^replay:out\.jsonl has no output for 3 of the 5 samples to call \("s3", "s4", "s5"\): they will end as missing-output errors/);
});

test('a resume checks the samples it will call: none to call is no check, and only their missing outputs are counted', () => {
  // The model finished every sample: the file no longer matters, even if it was emptied since.
  assert.deepEqual(checkRecordedOutputs(provider([]), { ...scope, toCall: [] }), []);
  // Two samples left to call, one of them without an output.
  const warnings = checkRecordedOutputs(provider(['s1', 's2', 's3', 's4']), { ...scope, toCall: ['s4', 's5'] });
  assert.deepEqual(warnings.length, 1);
  assert.match(warnings[0] as string, /no output for 1 of the 2 samples to call \("s5"\)/);
  // A file that matches none of the run's samples is refused on resume too.
  assert.throws(() => checkRecordedOutputs(provider(['other']), { ...scope, toCall: ['s5'] }), refusal(/matches none of the 5 samples/));
});
