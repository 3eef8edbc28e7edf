import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createDownloadReporter, formatBytes } from './download-progress.js';

/** A stand-in for stderr that records what is written. */
function fakeStream(isTTY: boolean): { stream: NodeJS.WriteStream; written: string[] } {
  const written: string[] = [];
  const stream = { isTTY, write: (s: string) => (written.push(s), true) } as unknown as NodeJS.WriteStream;
  return { stream, written };
}

test('formatBytes uses decimal units with one decimal', () => {
  assert.equal(formatBytes(0), '0 B');
  assert.equal(formatBytes(999), '999 B');
  assert.equal(formatBytes(1000), '1.0 kB');
  assert.equal(formatBytes(2500), '2.5 kB');
  assert.equal(formatBytes(2_770_203), '2.8 MB');
  assert.equal(formatBytes(3_000_000_000), '3.0 GB');
  assert.equal(formatBytes(999_999), '1.0 MB');
});

test('off a terminal: one line per file, when it starts; warnings on their own line', () => {
  const { stream, written } = fakeStream(false);
  const r = createDownloadReporter(stream);
  r.onProgress({ path: 'metatool/a.json', url: 'http://m/a.json', receivedBytes: 1000, totalBytes: 2500 });
  r.onProgress({ path: 'metatool/a.json', url: 'http://m/a.json', receivedBytes: 2500, totalBytes: 2500 });
  r.onWarning('retrying http://m/b.json (attempt 2): boom');
  r.onProgress({ path: 'metatool/b.json', url: 'http://m/b.json', receivedBytes: 10, totalBytes: null });
  r.stop();
  assert.deepEqual(written, [
    'downloading metatool/a.json from http://m/a.json (2.5 kB)\n',
    'warning: retrying http://m/b.json (attempt 2): boom\n',
    'downloading metatool/b.json from http://m/b.json\n',
  ]);
});

test('on a terminal: the file line is redrawn in place and ended before the next file', () => {
  const { stream, written } = fakeStream(true);
  const r = createDownloadReporter(stream);
  r.onProgress({ path: 'metatool/a.json', url: 'http://m/a.json', receivedBytes: 1000, totalBytes: 2500 });
  r.onProgress({ path: 'metatool/a.json', url: 'http://m/a.json', receivedBytes: 2500, totalBytes: 2500 });
  r.onProgress({ path: 'metatool/b.json', url: 'http://m/b.json', receivedBytes: 10, totalBytes: null });
  r.stop();
  r.stop();
  assert.deepEqual(written, [
    '\r\x1b[Kdownloading metatool/a.json: 1.0 kB of 2.5 kB',
    // The last chunk of a file is always drawn, however soon after the previous one.
    '\r\x1b[Kdownloading metatool/a.json: 2.5 kB of 2.5 kB',
    '\n',
    '\r\x1b[Kdownloading metatool/b.json: 10 B',
    '\n',
  ]);
});
