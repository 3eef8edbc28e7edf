import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { InputError } from '../../core/errors.js';
import {
  checkEmbeddings,
  embeddingsFromPickle,
  nearestNeighbors,
  serializeEmbeddings,
  serializeNeighbors,
  type ToolEmbedding,
} from './derive-embeddings.js';
import { unpickle, type PickleValue } from './pickle.js';
import { pickleRecords } from './test-support/pickler.js';
import { needsData, metatoolFile as sharedMetatoolFile } from '../../testing/test-data.js';

// The shipped derived files were written by Python; assay must reproduce them byte for byte.
const skip = needsData('metatool');
let embeddingsText: string;
let neighborsText: string;
let sharedRecords: ToolEmbedding[];
let tools: string[];
before(() => {
  if (skip) return;
  embeddingsText = readFileSync(sharedMetatoolFile('derived/tool_embedding.json'), 'utf8');
  neighborsText = readFileSync(sharedMetatoolFile('derived/tool_neighbors_top20.json'), 'utf8');
  sharedRecords = JSON.parse(embeddingsText) as ToolEmbedding[];
  tools = Object.keys(JSON.parse(readFileSync(sharedMetatoolFile('plugin_des.json'), 'utf8')) as Record<string, string>);
});

test('the shipped embeddings pass the structure check (201 × 1536, unit length, all 199 tools)', { skip }, () => {
  assert.equal(tools.length, 199);
  checkEmbeddings(sharedRecords, { entries: 201, dimensions: 1536, requiredTools: tools }, 'tool_embedding.json');
});

test('re-serializing the shipped embeddings gives the same bytes', { skip }, () => {
  assert.ok(serializeEmbeddings(sharedRecords) === embeddingsText, 'tool_embedding.json differs');
});

test('neighbours computed from the shipped embeddings equal the shipped tool_neighbors_top20.json', { skip }, () => {
  const neighbors = nearestNeighbors(sharedRecords, new Set(tools), 20);
  assert.deepEqual(Object.fromEntries(neighbors), JSON.parse(neighborsText));
  assert.ok(serializeNeighbors(neighbors) === neighborsText, 'tool_neighbors_top20.json bytes differ');
});

for (const options of [{ protocol: 2 }, { protocol: 4, numpy: 'float32' }] as const) {
  test(`a ${JSON.stringify(options)} pickle of the embeddings converts back to the shipped files`, { skip }, () => {
    const records = embeddingsFromPickle(unpickle(pickleRecords(sharedRecords, options)), 'fixture.pkl');
    assert.equal(records.length, 201);
    assert.ok(serializeEmbeddings(records) === embeddingsText, 'tool_embedding.json differs');
    assert.ok(serializeNeighbors(nearestNeighbors(records, new Set(tools), 20)) === neighborsText, 'neighbours differ');
  });
}

test('nearest neighbours: itself first, then by cosine, ties by name, only listed tools', () => {
  const records: ToolEmbedding[] = [
    { tool: 'a', embedding: [1, 0] },
    { tool: 'b', embedding: [0.8, 0.6] },
    { tool: 'c', embedding: [3, 4] }, // length 5: cosine must normalize
    { tool: 'd', embedding: [0, 1] },
    { tool: 'e', embedding: [0.8, -0.6] },
    { tool: '0dup', embedding: [1, 0] }, // same direction as a, name sorts first
    { tool: 'x', embedding: [1, 0.01] }, // not listed: neither a key nor a neighbour
  ];
  const listed = new Set(['a', 'b', 'c', 'd', 'e', '0dup']);
  // a: itself, then 0dup (cos 1, but a is itself so first), then b and e tie at 0.8 → b by name.
  // b: c = .8·.6+.6·.8 = .96, a = .8, 0dup = .8 (tie: '0dup' < 'a').
  // d: c = .8, b = .6.
  assert.deepEqual(nearestNeighbors(records, listed, 3), [
    ['a', ['a', '0dup', 'b']],
    ['b', ['b', 'c', '0dup']],
    ['c', ['c', 'b', 'd']],
    ['d', ['d', 'c', 'b']],
    ['e', ['e', '0dup', 'a']],
    ['0dup', ['0dup', 'a', 'b']],
  ]);
});

test('neighbours are written like json.dumps(indent=0)', () => {
  assert.equal(serializeNeighbors([['a', ['a', 'b']], ['é', []]]), '{\n"a": [\n"a",\n"b"\n],\n"\\u00e9": []\n}');
  assert.equal(serializeEmbeddings([{ tool: 't', embedding: [1, -0.5, 2e-5] }]), '[{"tool":"t","embedding":[1.0,-0.5,2e-05]}]');
});

test('structure check names what is wrong', () => {
  const unit = (n: number): number[] => Array.from({ length: n }, (_, i) => (i === 0 ? 1 : 0));
  const ok: ToolEmbedding[] = [{ tool: 'a', embedding: unit(3) }, { tool: 'b', embedding: unit(3) }];
  const expect = { entries: 2, dimensions: 3, requiredTools: ['a', 'b'] };
  checkEmbeddings(ok, expect, 'x.pkl');
  const fails = (records: ToolEmbedding[], pattern: RegExp, override = {}) =>
    assert.throws(() => checkEmbeddings(records, { ...expect, ...override }, 'x.pkl'), (e: unknown) => e instanceof InputError && pattern.test(e.message));
  fails(ok, /^x\.pkl: expected 3 embeddings, found 2$/, { entries: 3 });
  fails([ok[0] as ToolEmbedding, { tool: 'b', embedding: [1, 0] }], /embedding of "b" has 2 dimensions, expected 3/);
  fails([ok[0] as ToolEmbedding, { tool: 'b', embedding: [0.5, 0, 0] }], /embedding of "b" has length 0.5, expected 1 ± 0.001/);
  fails([ok[0] as ToolEmbedding, { tool: 'a', embedding: unit(3) }], /tool "a" appears twice/);
  fails(ok, /no embedding for 1 tool\(s\): c/, { requiredTools: ['a', 'c'] });
});

test('embeddingsFromPickle rejects other shapes', () => {
  const dict = (entries: Array<[PickleValue, PickleValue]>) => new Map<PickleValue, PickleValue>(entries);
  assert.throws(() => embeddingsFromPickle(dict([]), 'x.pkl'), /x\.pkl: expected a list of \{'tool', 'embedding'\} dicts, got a dict/);
  assert.throws(() => embeddingsFromPickle([dict([['name', 'a']])], 'x.pkl'), /entry 0 has no string 'tool'/);
  assert.throws(() => embeddingsFromPickle([dict([['tool', 'a'], ['embedding', 'oops']])], 'x.pkl'), /entry 0 \(a\): 'embedding' is a string/);
});
