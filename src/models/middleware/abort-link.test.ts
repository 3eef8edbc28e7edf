import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { test } from 'node:test';
import { linkAbort } from './abort-link.js';

test('linkAbort: the signal aborts the controllers linked to it (with its reason), not those unlinked; one listener per signal', () => {
  const run = new AbortController();
  const calls = Array.from({ length: 5 }, () => new AbortController());
  const unlinks = calls.map((c) => linkAbort(run.signal, c));
  assert.equal(getEventListeners(run.signal, 'abort').length, 1);
  unlinks[1]?.();
  unlinks[3]?.();
  unlinks[3]?.();
  const reason = new Error('stop');
  run.abort(reason);
  assert.deepEqual(
    calls.map((c) => c.signal.aborted),
    [true, false, true, false, true],
  );
  assert.equal(calls[0]?.signal.reason, reason);
  assert.equal(getEventListeners(run.signal, 'abort').length, 0);
});

test('linkAbort: a signal aborted already aborts the controller at once; another signal keeps its own set', () => {
  const done = new AbortController();
  done.abort('gone');
  const late = new AbortController();
  linkAbort(done.signal, late)();
  assert.equal(late.signal.aborted, true);
  assert.equal(late.signal.reason, 'gone');

  const a = new AbortController();
  const b = new AbortController();
  const onA = new AbortController();
  const onB = new AbortController();
  linkAbort(a.signal, onA);
  linkAbort(b.signal, onB);
  a.abort();
  assert.equal(onA.signal.aborted, true);
  assert.equal(onB.signal.aborted, false);
});

test('linkAbort: a controller whose abort ends another call (which unlinks itself) does not stop the others being aborted', () => {
  const run = new AbortController();
  const first = new AbortController();
  const second = new AbortController();
  const third = new AbortController();
  linkAbort(run.signal, first);
  const unlinkSecond = linkAbort(run.signal, second);
  linkAbort(run.signal, third);
  first.signal.addEventListener('abort', () => unlinkSecond());
  run.abort();
  assert.deepEqual([first, second, third].map((c) => c.signal.aborted), [true, true, true]);
});
