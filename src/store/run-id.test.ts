import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newRunId } from './run-id.js';

test('newRunId formats the UTC date-time and maps the random draws to base-36 characters', () => {
  const draws = [20, 3, 15, 9]; // 'k' is the 21st base-36 digit (0-9 then a=10 … k=20), 'f' = 15
  let next = 0;
  const id = newRunId(new Date(Date.UTC(2026, 10, 21, 23, 33, 58, 999)), () => draws[next++] ?? 0);
  assert.equal(id, '20261121-233358-k3f9');
});

test('newRunId uses UTC whatever the local time zone', () => {
  const saved = process.env.TZ;
  process.env.TZ = 'Pacific/Kiritimati'; // UTC+14: 2026-01-01 05:06:07 UTC is already Jan 1 19:06 there
  try {
    assert.equal(newRunId(new Date(Date.UTC(2026, 0, 1, 5, 6, 7)), () => 35), '20260101-050607-zzzz');
  } finally {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  }
});

test('newRunId ids sort in creation order and default to random suffixes', () => {
  const earlier = newRunId(new Date(Date.UTC(2026, 0, 2, 9, 0, 0)));
  const later = newRunId(new Date(Date.UTC(2026, 10, 21, 0, 0, 0)));
  assert.match(earlier, /^20260102-090000-[0-9a-z]{4}$/);
  assert.ok(earlier < later);
  const many = new Set(Array.from({ length: 50 }, () => newRunId(new Date(0)).slice(-4)));
  // 50 draws from 36^4 values: a collision is possible (~0.07%) but all 50 equal would mean no randomness.
  assert.ok(many.size > 1);
});
