import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { endQuietlyOnClosedPipe, readerGone } from './closed-pipe.js';

const stream = (): NodeJS.WriteStream => new Writable({ write: (_chunk, _enc, done) => done() }) as unknown as NodeJS.WriteStream;

test('a closed pipe (EPIPE) is taken quietly and marks the stream\'s reader gone; another error is not hidden', () => {
  const out = stream();
  endQuietlyOnClosedPipe(out);
  endQuietlyOnClosedPipe(out); // once per stream
  assert.equal(out.listenerCount('error'), 1);
  assert.equal(readerGone(out), false);
  out.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
  assert.equal(readerGone(out), true);
  const other = stream();
  endQuietlyOnClosedPipe(other);
  assert.throws(() => other.emit('error', Object.assign(new Error('no space'), { code: 'ENOSPC' })), /no space/);
  assert.equal(readerGone(other), false);
});
