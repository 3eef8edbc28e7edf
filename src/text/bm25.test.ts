import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Bm25Index } from './bm25.js';

const close = (actual: number | undefined, expected: number, label: string): void => {
  assert.ok(actual !== undefined && Math.abs(actual - expected) < 1e-9, `${label}: expected ${expected}, got ${actual}`);
};

describe('Bm25Index on a hand-computed 3-document corpus', () => {
  // Whitespace tokenizer so the arithmetic below is exact:
  //   d1 = cat sat mat       |d1| = 3
  //   d2 = dog sat log dog   |d2| = 4
  //   d3 = cat dog           |d3| = 2
  // N = 3, avgdl = 9/3 = 3. Document frequencies: cat 2, sat 2, dog 2, mat 1, log 1.
  //   idf(cat) = idf(dog) = ln(1 + (3 − 2 + 0.5)/(2 + 0.5)) = ln(1 + 1.5/2.5) = ln 1.6
  //   idf(mat)            = ln(1 + (3 − 1 + 0.5)/(1 + 0.5)) = ln(1 + 2.5/1.5) = ln(8/3)
  // Length factors L = 1 − b + b·|d|/avgdl with b = 0.75:
  //   L1 = 0.25 + 0.75·3/3 = 1,  L2 = 0.25 + 0.75·4/3 = 1.25,  L3 = 0.25 + 0.75·2/3 = 0.75
  // Term weight = idf · tf·(k1 + 1) / (tf + k1·L) with k1 = 1.2:
  //   query "cat dog":
  //     d1: cat tf 1 → ln1.6 · 2.2/(1 + 1.2)        = ln1.6
  //     d2: dog tf 2 → ln1.6 · 4.4/(2 + 1.2·1.25)   = ln1.6 · 4.4/3.5
  //     d3: cat tf 1 + dog tf 1 → 2 · ln1.6 · 2.2/(1 + 1.2·0.75) = ln1.6 · 4.4/1.9
  //   query "mat": d1 → ln(8/3) · 2.2/2.2 = ln(8/3); d2, d3 → 0
  const index = new Bm25Index(['cat sat mat', 'dog sat log dog', 'cat dog'], { tokenize: (text) => text.split(' ') });
  const ln16 = Math.log(1.6);

  it('computes idf with the non-negative (Lucene) formula', () => {
    close(index.idf('cat'), ln16, 'idf(cat)');
    close(index.idf('mat'), Math.log(8 / 3), 'idf(mat)');
    assert.equal(index.idf('zebra'), 0);
    assert.equal(index.size, 3);
  });

  it('scores a two-term query', () => {
    const scores = index.scores('cat dog');
    assert.equal(scores.length, 3);
    close(scores[0], ln16, 'd1');
    close(scores[1], (ln16 * 4.4) / 3.5, 'd2');
    close(scores[2], (ln16 * 4.4) / 1.9, 'd3');
  });

  it('scores a rare term and gives 0 to documents without it', () => {
    const scores = index.scores('mat');
    close(scores[0], Math.log(8 / 3), 'd1');
    assert.equal(scores[1], 0);
    assert.equal(scores[2], 0);
  });

  it('counts a repeated query term once', () => {
    assert.deepEqual(index.scores('cat cat'), index.scores('cat'));
  });

  it('honours k1 and b', () => {
    // b = 0: no length normalization, L = 1 everywhere; k1 = 2: d2 dog tf 2 → ln1.6 · 2·3/(2 + 2) = ln1.6 · 1.5
    const flat = new Bm25Index(['cat sat mat', 'dog sat log dog', 'cat dog'], { k1: 2, b: 0, tokenize: (text) => text.split(' ') });
    close(flat.scores('dog')[1], ln16 * 1.5, 'd2 with k1=2, b=0');
  });
});

describe('Bm25Index with the default tokenizer', () => {
  it('drops stop words, lowercases and folds plurals', () => {
    const index = new Bm25Index(['Book cheap FLIGHTS', 'The weather of the day']);
    // "the" is a stop word: it must not make the weather document match.
    const scores = index.scores('the flight');
    assert.ok((scores[0] ?? 0) > 0);
    assert.equal(scores[1], 0);
  });

  it('returns zeros for an empty corpus or empty documents', () => {
    assert.deepEqual(new Bm25Index([]).scores('anything'), []);
    assert.deepEqual(new Bm25Index(['', 'the of']).scores('the'), [0, 0]);
  });
});
