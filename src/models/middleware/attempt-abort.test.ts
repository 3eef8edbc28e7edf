import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AttemptAbort, AttemptOptions } from './attempt-abort.js';
import { linkAbort } from './abort-link.js';

test('AttemptAbort: listeners told once, in order, with the reason; an unlisten is honoured; no signal made unless read', () => {
  const abort = new AttemptAbort();
  const told: string[] = [];
  abort.listen(() => told.push(`a:${String(abort.reason)}`));
  const unlisten = abort.listen(() => told.push('b'));
  abort.listen(() => told.push('c'));
  unlisten();
  assert.equal(abort.aborted, false);
  abort.abort('why');
  abort.abort('again');
  assert.deepEqual(told, ['a:why', 'c']);
  assert.equal(abort.reason, 'why');
  // Listening after the abort never calls back (check `aborted` first, as with a signal).
  abort.listen(() => told.push('late'));
  assert.deepEqual(told, ['a:why', 'c']);
});

test('AttemptAbort: the signal read before the abort is aborted with it; read after, it is aborted already, with the same reason', () => {
  const before = new AttemptAbort();
  const signal = before.signal;
  assert.equal(signal.aborted, false);
  assert.equal(before.signal, signal, 'one signal per attempt');
  const reason = new Error('timeout');
  before.abort(reason);
  assert.equal(signal.aborted, true);
  assert.equal(signal.reason, reason);

  const after = new AttemptAbort();
  after.abort(reason);
  assert.equal(after.signal.aborted, true);
  assert.equal(after.signal.reason, reason);
});

test('AttemptAbort: aborted without a reason, it has an AbortError as AbortController gives; the run signal reaches it through linkAbort', () => {
  const bare = new AttemptAbort();
  bare.abort();
  assert.ok(bare.reason instanceof DOMException);
  assert.equal((bare.reason as DOMException).name, 'AbortError');

  const run = new AbortController();
  const attempt = new AttemptAbort();
  const unlink = linkAbort(run.signal, attempt);
  const stop = new Error('stop');
  run.abort(stop);
  assert.equal(attempt.aborted, true);
  assert.equal(attempt.reason, stop);
  unlink();
});

test('AttemptOptions: the attempt\'s abort and sample, its signal made only when read, one per attempt, aborted with the attempt', () => {
  const abort = new AttemptAbort();
  const options = new AttemptOptions(abort, 's1');
  assert.equal(options.abort, abort);
  assert.equal(options.sampleId, 's1');
  assert.equal(Object.getOwnPropertyDescriptor(options, 'signal'), undefined, 'the getter is the prototype\'s, not one per attempt');
  assert.equal((abort as unknown as { controller: unknown }).controller, undefined, 'no signal made before it is read');
  const signal = options.signal;
  assert.equal(options.signal, signal);
  assert.equal(signal, abort.signal);
  abort.abort('why');
  assert.equal(signal.aborted, true);
  assert.equal(signal.reason, 'why');
});
