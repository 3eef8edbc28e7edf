import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boundedLogText, visibleControls } from './terminal-text.js';

test('every C0/C1 control, DEL, line separators and bidi overrides are written as \\u escapes', () => {
  assert.equal(visibleControls('a\x1b]0;title\x07\x1b[2Jb'), 'a\\u001b]0;title\\u0007\\u001b[2Jb');
  assert.equal(visibleControls('\x00\x08\r\x7f\u0085\u009b'), '\\u0000\\u0008\\u000d\\u007f\\u0085\\u009b');
  assert.equal(visibleControls('x\u202ey\u2066z\u2069\u2028'), 'x\\u202ey\\u2066z\\u2069\\u2028');
  // Text without controls is returned as it is, non-ASCII letters and bidi marks included.
  const plain = 'résumé 요약 \u200f مرحبا — ok';
  assert.equal(visibleControls(plain), plain);
});

test('newlines and tabs: shown by default, kept with keepLayout', () => {
  assert.equal(visibleControls('a\nb\tc'), 'a\\u000ab\\u0009c');
  assert.equal(visibleControls('a\nb\tc\x1b', { keepLayout: true }), 'a\nb\tc\\u001b');
});

test('a JSON text stays JSON with the same value', () => {
  const value = { message: 'bad key \x1b]0;t\x07 \u009b31m \u202e', list: ['\u2028'] };
  const text = JSON.stringify(value, null, 2);
  const shown = visibleControls(text, { keepLayout: true });
  assert.ok(!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u202e]/.test(shown));
  assert.deepEqual(JSON.parse(shown), value);
});

test('a log field is bounded with a marker saying how much was left out, and made one safe line', () => {
  const long = 'r'.repeat(1_000_000);
  const shown = boundedLogText(long, 200);
  assert.equal(shown, `${'r'.repeat(200)}… (999800 more characters)`);
  assert.equal(boundedLogText('short\n\x1b', 200), 'short\\u000a\\u001b');
  assert.equal(boundedLogText('exactly', 7), 'exactly');
});
