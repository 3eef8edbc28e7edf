import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { majority } from './vote.js';

const T = true;
const F = false;

describe('majority', () => {
  it('one vote decides alone, unanimously', () => {
    assert.deepEqual(majority([T]), { verdict: true, agreement: 1, pass: 1, fail: 0, none: 0 });
    assert.deepEqual(majority([F]), { verdict: false, agreement: 1, pass: 0, fail: 1, none: 0 });
    assert.deepEqual(majority([null]), { verdict: null, agreement: 1, pass: 0, fail: 0, none: 1 });
  });

  it('a tie is no verdict', () => {
    assert.deepEqual(majority([T, F]), { verdict: null, agreement: 0.5, pass: 1, fail: 1, none: 0 });
    assert.deepEqual(majority([T, T, F, F]), { verdict: null, agreement: 0.5, pass: 2, fail: 2, none: 0 });
  });

  it('two of three wins, with agreement 2/3', () => {
    assert.deepEqual(majority([T, T, F]), { verdict: true, agreement: 2 / 3, pass: 2, fail: 1, none: 0 });
    assert.deepEqual(majority([F, T, F]), { verdict: false, agreement: 2 / 3, pass: 1, fail: 2, none: 0 });
    assert.deepEqual(majority([T, T, null]), { verdict: true, agreement: 2 / 3, pass: 2, fail: 0, none: 1 });
  });

  it('one pass, one fail, one unreadable: no verdict, agreement 1/3', () => {
    assert.deepEqual(majority([T, null, F]), { verdict: null, agreement: 1 / 3, pass: 1, fail: 1, none: 1 });
  });

  it('no-verdict votes count in the denominator: a lone pass among unreadables does not win', () => {
    assert.deepEqual(majority([T, null, null]), { verdict: null, agreement: 2 / 3, pass: 1, fail: 0, none: 2 });
    assert.deepEqual(majority([T, T, null, null]), { verdict: null, agreement: 0.5, pass: 2, fail: 0, none: 2 });
    assert.deepEqual(majority([T, T, T, null, F]), { verdict: true, agreement: 3 / 5, pass: 3, fail: 1, none: 1 });
  });

  it('refuses an empty list', () => {
    assert.throws(() => majority([]), RangeError);
  });
});
