import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compareKeysNaturally, rateBy, ratio } from './rates.js';

describe('ratio', () => {
  it('divides', () => {
    assert.equal(ratio(1, 4), 0.25);
    assert.equal(ratio(0, 5), 0);
    assert.equal(ratio(6, 3), 2);
  });

  it('is null, not NaN or Infinity, when the denominator is 0', () => {
    assert.equal(ratio(0, 0), null);
    assert.equal(ratio(3, 0), null);
  });

  it('rejects non-finite input', () => {
    assert.throws(() => ratio(Number.NaN, 1), RangeError);
    assert.throws(() => ratio(1, Number.POSITIVE_INFINITY), RangeError);
  });
});

describe('rateBy', () => {
  interface Row {
    readonly group?: string;
    readonly ok: boolean;
  }
  const rows: Row[] = [
    { group: '10', ok: true },
    { group: '2', ok: false },
    { group: '2', ok: true },
    { group: 'elders', ok: true },
    { group: 'Finance Staff', ok: false },
    { group: 'artists&designers', ok: true },
    { group: 'artists&designers', ok: true },
    { group: '10', ok: true },
    { group: '10', ok: false },
    { ok: true }, // no key: skipped
    { group: '1', ok: false },
  ];

  it('gives the share of hits per key, skipping rows without a key', () => {
    // "1": 0/1; "2": 1/2; "10": 2/3; artists&designers: 2/2; elders: 1/1; Finance Staff: 0/1.
    const rates = rateBy(rows, (row) => row.group, (row) => row.ok);
    assert.deepEqual(rates, {
      '1': 0,
      '2': 0.5,
      '10': 2 / 3,
      'artists&designers': 1,
      elders: 1,
      'Finance Staff': 0,
    });
  });

  it('lists keys in natural order: numbers by value first, then words alphabetically ignoring case', () => {
    const rates = rateBy(rows, (row) => row.group, (row) => row.ok);
    assert.deepEqual(Object.keys(rates), ['1', '2', '10', 'artists&designers', 'elders', 'Finance Staff']);
  });

  it('is empty for no rows', () => {
    assert.deepEqual(rateBy([], () => 'k', () => true), {});
  });

  it('keeps a key named __proto__ as an ordinary property', () => {
    const rates = rateBy([{ k: '__proto__' }], (row) => row.k, () => true);
    assert.deepEqual(Object.keys(rates), ['__proto__']);
    assert.equal(Object.getPrototypeOf(rates), Object.prototype);
  });
});

describe('compareKeysNaturally', () => {
  it('orders numeric keys by value, including negative and decimal ones, before other keys', () => {
    const keys = ['b', '10', '2.5', 'A', '-1', '2', 'a10', 'a9', '0'];
    // Numbers: -1 < 0 < 2 < 2.5 < 10. Words, English collation ignoring case first: "A" is a
    // prefix of "a10" so it comes first; "a10" < "a9" character by character ('1' < '9'); then "b".
    assert.deepEqual(keys.sort(compareKeysNaturally), ['-1', '0', '2', '2.5', '10', 'A', 'a10', 'a9', 'b']);
  });

  it('breaks ties between equal numbers written differently by their text', () => {
    assert.deepEqual(['2.0', '02', '2'].sort(compareKeysNaturally), ['02', '2', '2.0']);
  });
});
