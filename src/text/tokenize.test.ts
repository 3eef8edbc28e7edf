import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sStem } from './stem.js';
import { splitIdentifier, tokenize } from './tokenize.js';

describe('tokenize', () => {
  it('lowercases, splits on non-alphanumerics, strips accents and drops stop words', () => {
    assert.deepEqual(tokenize("The Café's 2 best-sellers, in Zürich!"), ['cafe', '2', 'best', 'sellers', 'zurich']);
  });

  it('keeps stop words when asked and folds plurals when asked', () => {
    assert.deepEqual(tokenize('Is the price of flights', { stopWords: false }), ['is', 'the', 'price', 'of', 'flights']);
    assert.deepEqual(tokenize('Cheap flights and hotels', { stem: true }), ['cheap', 'flight', 'hotel']);
  });

  it('accepts a custom stop-word list', () => {
    assert.deepEqual(tokenize('the cat and the dog', { stopWords: new Set(['cat']) }), ['the', 'and', 'the', 'dog']);
  });
});

describe('splitIdentifier', () => {
  it('splits camelCase, acronyms, underscores', () => {
    assert.deepEqual(splitIdentifier('SummarizeAnything_pr'), ['Summarize', 'Anything', 'pr']);
    assert.deepEqual(splitIdentifier('ChatOCR'), ['Chat', 'OCR']);
    assert.deepEqual(splitIdentifier('XMLHttpRequest'), ['XML', 'Http', 'Request']);
    assert.deepEqual(splitIdentifier('total_query_meta_search_engine'), ['total', 'query', 'meta', 'search', 'engine']);
    assert.deepEqual(splitIdentifier('web3Tool'), ['web3', 'Tool']);
    assert.deepEqual(splitIdentifier('get-weather now'), ['get', 'weather', 'now']);
  });

  it('leaves a single word alone', () => {
    assert.deepEqual(splitIdentifier('airqualityforeast'), ['airqualityforeast']);
    assert.deepEqual(splitIdentifier('Now'), ['Now']);
  });
});

describe('sStem (Harman S-stemmer)', () => {
  it('applies the three rules', () => {
    assert.equal(sStem('queries'), 'query');
    assert.equal(sStem('prices'), 'price');
    assert.equal(sStem('flights'), 'flight');
  });

  it('respects the exceptions', () => {
    assert.equal(sStem('status'), 'status'); // -us
    assert.equal(sStem('glass'), 'glass'); // -ss
    assert.equal(sStem('toes'), 'toe'); // -oes: not the -es rule; the -s rule applies
    assert.equal(sStem('trees'), 'tree'); // -ees: same
    assert.equal(sStem('gas'), 'gas'); // three letters or fewer
    assert.equal(sStem('weather'), 'weather');
  });
});
