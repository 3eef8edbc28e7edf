import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InputError } from '../../core/index.js';
import { userCatalogue } from '../../datasets/metatool/index.js';
import { embeddingNeighbours, lexicalNeighbours } from './tool-similarity.js';

/** A fixed embedder: each description is looked up in a table of 2-d vectors. */
function tableEmbedder(table: Readonly<Record<string, readonly number[]>>) {
  return { id: 'table', embed: async (texts: readonly string[]) => texts.map((t) => [...(table[t] ?? [])]) };
}

const catalogueOf = (descriptions: Readonly<Record<string, string>>) =>
  userCatalogue(Object.entries(descriptions).map(([name, description]) => ({ name, description, queries: [] })));

test('embeddingNeighbours: the tool first, then others by hand-computed cosine', async () => {
  // a=(1,0) b=(1,1) c=(0,1) d=(-1,0.1).
  // From a: b 0.707, c 0, d -0.995.       From c: b 0.707, d 0.0995, a 0.
  // From d: c 0.0995, b -0.633, a -0.995.
  const catalogue = catalogueOf({ a: 'A', b: 'B', c: 'C', d: 'D' });
  const embedder = tableEmbedder({ A: [1, 0], B: [1, 1], C: [0, 1], D: [-1, 0.1] });
  const nearest = await embeddingNeighbours(catalogue, embedder, 4);
  assert.deepEqual(nearest.get('a'), ['a', 'b', 'c', 'd']);
  assert.deepEqual(nearest.get('c'), ['c', 'b', 'd', 'a']);
  assert.deepEqual(nearest.get('d'), ['d', 'c', 'b', 'a']);
  assert.deepEqual((await embeddingNeighbours(catalogue, embedder, 2)).get('d'), ['d', 'c'], 'k counts the tool itself');
});

test('embeddingNeighbours: equal cosines are ordered by name; an unusable vector is an InputError', async () => {
  // From a=(1,0): z and b are both (2,0), cosine 1 — b before z by name.
  const ties = await embeddingNeighbours(catalogueOf({ z: 'Z', a: 'A', b: 'B', c: 'C' }), tableEmbedder({ A: [1, 0], B: [2, 0], Z: [2, 0], C: [0, 1] }), 4);
  assert.deepEqual(ties.get('a'), ['a', 'b', 'z', 'c']);
  const zero = tableEmbedder({ A: [1, 0], B: [0, 0], C: [0, 1] });
  await assert.rejects(embeddingNeighbours(catalogueOf({ a: 'A', b: 'B', c: 'C' }), zero, 3), (e: unknown) => e instanceof InputError && e.message.includes('"b"'));
  const mixed = tableEmbedder({ A: [1, 0], B: [1, 0, 0], C: [0, 1] });
  await assert.rejects(embeddingNeighbours(catalogueOf({ a: 'A', b: 'B', c: 'C' }), mixed, 3), InputError);
});

test('lexicalNeighbours: BM25 between descriptions, unrelated tools last by name', () => {
  const catalogue = catalogueOf({
    forecast: 'weather forecast for a city',
    radar: 'weather radar',
    guide: 'city guide with restaurants museums and parks',
    stocks: 'stock prices',
    zoo: 'animals',
  });
  const nearest = lexicalNeighbours(catalogue, 5);
  // From forecast (terms weather, forecast, city): radar shares "weather", guide shares "city";
  // both terms are in 2 of 5 descriptions (same idf), radar is shorter (2 terms vs 5), so it
  // scores higher. stocks and zoo share nothing (score 0): by name.
  assert.deepEqual(nearest.get('forecast'), ['forecast', 'radar', 'guide', 'stocks', 'zoo']);
  // From radar: only forecast shares a term; the rest score 0, by name.
  assert.deepEqual(nearest.get('radar'), ['radar', 'forecast', 'guide', 'stocks', 'zoo']);
  assert.deepEqual(lexicalNeighbours(catalogue, 2).get('guide'), ['guide', 'forecast']);
});
