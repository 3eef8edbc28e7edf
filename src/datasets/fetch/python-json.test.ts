import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pythonFloatRepr, pythonJsonString } from './python-json.js';

// Expected strings are Python 3.11's repr()/json.dumps() output for the same values.
const PYTHON_REPR: Array<[number, string]> = [
  [0, '0.0'],
  [-0, '-0.0'],
  [1, '1.0'],
  [-2.5, '-2.5'],
  [0.1, '0.1'],
  [1e-5, '1e-05'],
  [1.2e-5, '1.2e-05'],
  [0.0001, '0.0001'],
  [0.00012345, '0.00012345'],
  [9.999999999999999e-5, '9.999999999999999e-05'],
  [1e16, '1e+16'],
  [1e15, '1000000000000000.0'],
  [123456789012345.6, '123456789012345.6'],
  [9999999999999998, '9999999999999998.0'],
  [2 ** 53, '9007199254740992.0'],
  [12345678901234567, '1.2345678901234568e+16'],
  [1e22, '1e+22'],
  [1.5e300, '1.5e+300'],
  [5e-324, '5e-324'],
  [-8.602179150329903e-5, '-8.602179150329903e-05'],
  [0.002328580478206277, '0.002328580478206277'],
  [1 / 3, '0.3333333333333333'],
  [2 ** 60, '1.152921504606847e+18'],
  [1e-7, '1e-07'],
  [1.7976931348623157e308, '1.7976931348623157e+308'],
];

test('pythonFloatRepr writes floats as Python repr does', () => {
  for (const [value, expected] of PYTHON_REPR) assert.equal(pythonFloatRepr(value), expected, `for ${value}`);
});

test('pythonFloatRepr refuses what JSON cannot hold', () => {
  assert.throws(() => pythonFloatRepr(Number.NaN), RangeError);
  assert.throws(() => pythonFloatRepr(Infinity), RangeError);
});

test('pythonJsonString escapes like json.dumps with ensure_ascii', () => {
  // json.dumps(['é\x7f\n"\\ \x01', '😀', 'a\u2028b']) in Python.
  assert.equal(pythonJsonString('é\u007f\n"\\ \u0001'), '"\\u00e9\\u007f\\n\\"\\\\ \\u0001"');
  assert.equal(pythonJsonString('😀'), '"\\ud83d\\ude00"');
  assert.equal(pythonJsonString('a\u2028b'), '"a\\u2028b"');
  assert.equal(pythonJsonString('plain_tool'), '"plain_tool"');
});
