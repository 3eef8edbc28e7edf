import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseRetryAfterMs } from './retry-after.js';

const NOW = Date.UTC(2015, 9, 21, 7, 28, 0); // Wed, 21 Oct 2015 07:28:00 GMT

describe('parseRetryAfterMs', () => {
  it('reads delta-seconds, whole or fractional', () => {
    assert.equal(parseRetryAfterMs({ 'retry-after': '7' }, NOW), 7000);
    assert.equal(parseRetryAfterMs({ 'retry-after': ' 1.5 ' }, NOW), 1500);
    assert.equal(parseRetryAfterMs({ 'retry-after': '0' }, NOW), 0);
  });

  it('reads an HTTP date relative to now, never negative', () => {
    assert.equal(parseRetryAfterMs({ 'retry-after': 'Wed, 21 Oct 2015 07:28:30 GMT' }, NOW), 30_000);
    assert.equal(parseRetryAfterMs({ 'retry-after': 'Wed, 21 Oct 2015 07:27:00 GMT' }, NOW), 0);
  });

  it('prefers retry-after-ms, and falls back when it is unreadable', () => {
    assert.equal(parseRetryAfterMs({ 'retry-after-ms': '250', 'retry-after': '7' }, NOW), 250);
    assert.equal(parseRetryAfterMs({ 'retry-after-ms': '12.5' }, NOW), 12.5);
    assert.equal(parseRetryAfterMs({ 'retry-after-ms': 'soon', 'retry-after': '2' }, NOW), 2000);
    assert.equal(parseRetryAfterMs({ 'retry-after-ms': '-5', 'retry-after': '2' }, NOW), 2000);
  });

  it('returns undefined when there is nothing readable', () => {
    assert.equal(parseRetryAfterMs({}, NOW), undefined);
    assert.equal(parseRetryAfterMs({ 'retry-after': 'later' }, NOW), undefined);
    assert.equal(parseRetryAfterMs({ 'retry-after': '' }, NOW), undefined);
    assert.equal(parseRetryAfterMs({ 'retry-after': '-3' }, NOW), undefined);
  });

  it('uses the first of repeated headers', () => {
    assert.equal(parseRetryAfterMs({ 'retry-after': ['3', '9'] }, NOW), 3000);
  });
});
