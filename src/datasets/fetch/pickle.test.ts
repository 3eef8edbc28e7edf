import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InputError } from '../../core/errors.js';
import { NdArray, unpickle, type PickleValue } from './pickle.js';

/**
 * Pickles written by CPython 3.11.7 with numpy 2.4.6 (`pickle.dumps(obj, protocol=N)`); the
 * Python expression for each is in the comment, and the expected values below are read off it.
 */
const FIXTURES = {
  // [{'tool': 'alpha', 'embedding': [0.5, -0.25, 1e-05]}, {'tool': 'b\u00e9ta', 'embedding': [1.0, 0.0, -2.5]}]
  records_p2: 'gAJdcQAofXEBKFgEAAAAdG9vbHECWAUAAABhbHBoYXEDWAkAAABlbWJlZGRpbmdxBF1xBShHP+AAAAAAAABHv9AAAAAAAABHPuT4tYjjaPFldX1xBihoAlgFAAAAYsOpdGFxB2gEXXEIKEc/8AAAAAAAAEcAAAAAAAAAAEfABAAAAAAAAGV1ZS4=',
  records_p4: 'gASVcgAAAAAAAABdlCh9lCiMBHRvb2yUjAVhbHBoYZSMCWVtYmVkZGluZ5RdlChHP+AAAAAAAABHv9AAAAAAAABHPuT4tYjjaPFldX2UKGgCjAViw6l0YZRoBF2UKEc/8AAAAAAAAEcAAAAAAAAAAEfABAAAAAAAAGV1ZS4=',
  // shared = [7]; (None, True, False, 0, 255, 65535, -1, 2**31-1, -2**31, 2**40, -2**63, 2**64, 1.5, 'x', '', b'\x00\xff',
  //  (), (1,), (1, 2), (1, 2, 3), (1, 2, 3, 4), {'k': [1]}, {1: 'one'}, [shared, shared], 'z' * 300)
  scalars_p2: 'gAIoToiJSwBL/03//0r/////Sv///39KAAAAgIoGAAAAAAABiggAAAAAAAAAgIoJAAAAAAAAAAABRz/4AAAAAAAAWAEAAAB4cQBYAAAAAHEBY19jb2RlY3MKZW5jb2RlCnECWAMAAAAAw79xA1gGAAAAbGF0aW4xcQSGcQVScQYpSwGFcQdLAUsChnEISwFLAksDh3EJKEsBSwJLA0sEdHEKfXELWAEAAABrcQxdcQ1LAWFzfXEOSwFYAwAAAG9uZXEPc11xEChdcRFLB2FoEWVYLAEAAHp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enESdHETLg==',
  scalars_p4: 'gASVwQEAAAAAAAAoToiJSwBL/03//0r/////Sv///39KAAAAgIoGAAAAAAABiggAAAAAAAAAgIoJAAAAAAAAAAABRz/4AAAAAAAAjAF4lIwAlEMCAP+UKUsBhZRLAUsChpRLAUsCSwOHlChLAUsCSwNLBHSUfZSMAWuUXZRLAWFzfZRLAYwDb25llHNdlChdlEsHYWgNZVgsAQAAenp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6lHSULg==',
  scalars_p5: 'gAWVwQEAAAAAAAAoToiJSwBL/03//0r/////Sv///39KAAAAgIoGAAAAAAABiggAAAAAAAAAgIoJAAAAAAAAAAABRz/4AAAAAAAAjAF4lIwAlEMCAP+UKUsBhZRLAUsChpRLAUsCSwOHlChLAUsCSwNLBHSUfZSMAWuUXZRLAWFzfZRLAYwDb25llHNdlChdlEsHYWgNZVgsAQAAenp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6lHSULg==',
  // np.array([0.5, -0.25, 1e-05], dtype=np.float32)
  np_f32_p2: 'gAJjbnVtcHkuX2NvcmUubXVsdGlhcnJheQpfcmVjb25zdHJ1Y3QKcQBjbnVtcHkKbmRhcnJheQpxAUsAhXECY19jb2RlY3MKZW5jb2RlCnEDWAEAAABicQRYBgAAAGxhdGluMXEFhnEGUnEHh3EIUnEJKEsBSwOFcQpjbnVtcHkKZHR5cGUKcQtYAgAAAGY0cQyJiIdxDVJxDihLA1gBAAAAPHEPTk5OSv////9K/////0sAdHEQYoloA1gQAAAAAAAAPwAAwoDCvsKsw4UnN3ERaAWGcRJScRN0cRRiLg==',
  np_f32_p4: 'gASVlQAAAAAAAACMFm51bXB5Ll9jb3JlLm11bHRpYXJyYXmUjAxfcmVjb25zdHJ1Y3SUk5SMBW51bXB5lIwHbmRhcnJheZSTlEsAhZRDAWKUh5RSlChLAUsDhZRoA4wFZHR5cGWUk5SMAmY0lImIh5RSlChLA4wBPJROTk5K/////0r/////SwB0lGKJQwwAAAA/AACAvqzFJzeUdJRiLg==',
  // np.array([0.1, -2.0, 3e100], dtype=np.float64)
  np_f64_p2: 'gAJjbnVtcHkuX2NvcmUubXVsdGlhcnJheQpfcmVjb25zdHJ1Y3QKcQBjbnVtcHkKbmRhcnJheQpxAUsAhXECY19jb2RlY3MKZW5jb2RlCnEDWAEAAABicQRYBgAAAGxhdGluMXEFhnEGUnEHh3EIUnEJKEsBSwOFcQpjbnVtcHkKZHR5cGUKcQtYAgAAAGY4cQyJiIdxDVJxDihLA1gBAAAAPHEPTk5OSv////9K/////0sAdHEQYoloA1gjAAAAwprCmcKZwpnCmcKZwrk/AAAAAAAAAMOAOyVfwrjCg27Di1RxEWgFhnESUnETdHEUYi4=',
  np_f64_p5: 'gAWVjAAAAAAAAACME251bXB5Ll9jb3JlLm51bWVyaWOUjAtfZnJvbWJ1ZmZlcpSTlCiWGAAAAAAAAACamZmZmZm5PwAAAAAAAADAOyVfuINuy1SUjAVudW1weZSMBWR0eXBllJOUjAJmOJSJiIeUUpQoSwOMATyUTk5OSv////9K/////0sAdJRiSwOFlIwBQ5R0lFKULg==',
  // np.asfortranarray(np.arange(6, dtype='<f8').reshape(2, 3))
  np_f64_fortran_p2: 'gAJjbnVtcHkuX2NvcmUubXVsdGlhcnJheQpfcmVjb25zdHJ1Y3QKcQBjbnVtcHkKbmRhcnJheQpxAUsAhXECY19jb2RlY3MKZW5jb2RlCnEDWAEAAABicQRYBgAAAGxhdGluMXEFhnEGUnEHh3EIUnEJKEsBSwJLA4ZxCmNudW1weQpkdHlwZQpxC1gCAAAAZjhxDImIh3ENUnEOKEsDWAEAAAA8cQ9OTk5K/////0r/////SwB0cRBiiGgDWDEAAAAAAAAAAAAAAAAAAAAAAAhAAAAAAAAAw7A/AAAAAAAAEEAAAAAAAAAAQAAAAAAAABRAcRFoBYZxElJxE3RxFGIu',
  // np.array([1.5, -3.0], dtype='>f8')
  np_f64_bigendian_p4: 'gASVmQAAAAAAAACMFm51bXB5Ll9jb3JlLm11bHRpYXJyYXmUjAxfcmVjb25zdHJ1Y3SUk5SMBW51bXB5lIwHbmRhcnJheZSTlEsAhZRDAWKUh5RSlChLAUsChZRoA4wFZHR5cGWUk5SMAmY4lImIh5RSlChLA4wBPpROTk5K/////0r/////SwB0lGKJQxA/+AAAAAAAAMAIAAAAAAAAlHSUYi4=',
  // [{'tool': 'alpha', 'embedding': np.array([0.6, 0.8], dtype=np.float32)}, {'tool': 'beta', 'embedding': np.array([1.0, 0.0], dtype=np.float64)}]
  np_records_p4: 'gASVEwEAAAAAAABdlCh9lCiMBHRvb2yUjAVhbHBoYZSMCWVtYmVkZGluZ5SMFm51bXB5Ll9jb3JlLm11bHRpYXJyYXmUjAxfcmVjb25zdHJ1Y3SUk5SMBW51bXB5lIwHbmRhcnJheZSTlEsAhZRDAWKUh5RSlChLAUsChZRoCIwFZHR5cGWUk5SMAmY0lImIh5RSlChLA4wBPJROTk5K/////0r/////SwB0lGKJQwiamRk/zcxMP5R0lGJ1fZQoaAKMBGJldGGUaARoB2gKSwCFlGgMh5RSlChLAUsChZRoEYwCZjiUiYiHlFKUKEsDaBVOTk5K/////0r/////SwB0lGKJQxAAAAAAAADwPwAAAAAAAAAAlHSUYnVlLg==',
  // [np.float32(0.5), np.float64(-0.25)]
  np_scalars_p4: 'gASVnwAAAAAAAABdlCiMFm51bXB5Ll9jb3JlLm11bHRpYXJyYXmUjAZzY2FsYXKUk5SMBW51bXB5lIwFZHR5cGWUk5SMAmY0lImIh5RSlChLA4wBPJROTk5K/////0r/////SwB0lGJDBAAAAD+UhpRSlGgDaAaMAmY4lImIh5RSlChLA2gKTk5OSv////9K/////0sAdJRiQwgAAAAAAADQv5SGlFKUZS4=',
  // np.array([1, 2], dtype=np.int32)
  np_int32_p4: 'gASVkQAAAAAAAACMFm51bXB5Ll9jb3JlLm11bHRpYXJyYXmUjAxfcmVjb25zdHJ1Y3SUk5SMBW51bXB5lIwHbmRhcnJheZSTlEsAhZRDAWKUh5RSlChLAUsChZRoA4wFZHR5cGWUk5SMAmk0lImIh5RSlChLA4wBPJROTk5K/////0r/////SwB0lGKJQwgBAAAAAgAAAJR0lGIu',
  // class Evil: def __reduce__(self): return (os.system, ('echo pwned',))
  evil_p2: 'gAJjcG9zaXgKc3lzdGVtCnEAWAoAAABlY2hvIHB3bmVkcQGFcQJScQMu',
  evil_p4: 'gASVJQAAAAAAAACMBXBvc2l4lIwGc3lzdGVtlJOUjAplY2hvIHB3bmVklIWUUpQu',
  // {1, 2}
  set_p4: 'gASVCQAAAAAAAACPlChLAUsCkC4=',
  // [1], protocol 0
  list_p0: 'KGxwMApJMQphLg==',
} as const;

const load = (name: keyof typeof FIXTURES): PickleValue => unpickle(Buffer.from(FIXTURES[name], 'base64'), { source: `${name}.pkl` });
const f32 = (...xs: number[]) => Float32Array.from(xs);
const f64 = (...xs: number[]) => Float64Array.from(xs);

test('lists of dicts of str and float, protocols 2 and 4', () => {
  const expected = [
    new Map<PickleValue, PickleValue>([['tool', 'alpha'], ['embedding', [0.5, -0.25, 1e-5]]]),
    new Map<PickleValue, PickleValue>([['tool', 'b\u00e9ta'], ['embedding', [1, 0, -2.5]]]),
  ];
  assert.deepEqual(load('records_p2'), expected);
  assert.deepEqual(load('records_p4'), expected);
});

test('every scalar and container opcode, protocols 2, 4 and 5', () => {
  for (const name of ['scalars_p2', 'scalars_p4', 'scalars_p5'] as const) {
    const value = load(name);
    assert.ok(Array.isArray(value), name);
    const shared = [7];
    assert.deepEqual(value, [
      null, true, false, 0, 255, 65535, -1, 2147483647, -2147483648, 1099511627776,
      -9223372036854775808n, 18446744073709551616n, 1.5, 'x', '', new Uint8Array([0, 255]),
      [], [1], [1, 2], [1, 2, 3], [1, 2, 3, 4],
      new Map<PickleValue, PickleValue>([['k', [1]]]), new Map<PickleValue, PickleValue>([[1, 'one']]),
      [shared, shared], 'z'.repeat(300),
    ], name);
    // The memo makes the two references one object, as in Python.
    const pair = value[23] as PickleValue[];
    assert.equal(pair[0], pair[1], `${name}: memoized list is shared`);
  }
});

test('numpy float32 arrays via _reconstruct (protocol 2 with _codecs bytes, protocol 4)', () => {
  const expected = new NdArray('float32', [3], false, f32(0.5, -0.25, 1e-5));
  assert.deepEqual(load('np_f32_p2'), expected);
  assert.deepEqual(load('np_f32_p4'), expected);
});

test('numpy < 2 module names (numpy.core.multiarray) are read the same', () => {
  // Hand-assembled: the numpy 2 protocol-2 stream with the numpy 1.x module name in its GLOBAL line.
  const text = Buffer.from(FIXTURES.np_f32_p2, 'base64').toString('latin1').replace('numpy._core.multiarray', 'numpy.core.multiarray');
  const value = unpickle(Buffer.from(text, 'latin1'));
  assert.deepEqual(value, new NdArray('float32', [3], false, f32(0.5, -0.25, 1e-5)));
});

test('numpy float64 arrays via _reconstruct and via protocol 5 _frombuffer', () => {
  const expected = new NdArray('float64', [3], false, f64(0.1, -2, 3e100));
  assert.deepEqual(load('np_f64_p2'), expected);
  assert.deepEqual(load('np_f64_p5'), expected);
});

test('Fortran-ordered and big-endian arrays', () => {
  // arange(6).reshape(2, 3) = [[0, 1, 2], [3, 4, 5]]; column-major storage is 0, 3, 1, 4, 2, 5.
  assert.deepEqual(load('np_f64_fortran_p2'), new NdArray('float64', [2, 3], true, f64(0, 3, 1, 4, 2, 5)));
  assert.deepEqual(load('np_f64_bigendian_p4'), new NdArray('float64', [2], false, f64(1.5, -3)));
});

test('numpy arrays and scalars inside plain containers', () => {
  assert.deepEqual(load('np_records_p4'), [
    new Map<PickleValue, PickleValue>([['tool', 'alpha'], ['embedding', new NdArray('float32', [2], false, f32(0.6, 0.8))]]),
    new Map<PickleValue, PickleValue>([['tool', 'beta'], ['embedding', new NdArray('float64', [2], false, f64(1, 0))]]),
  ]);
  assert.deepEqual(load('np_scalars_p4'), [0.5, -0.25]);
});

test('refuses globals outside the allow-list and never runs them', () => {
  for (const name of ['evil_p2', 'evil_p4'] as const) {
    assert.throws(() => load(name), (error: unknown) => {
      assert.ok(error instanceof InputError);
      assert.match(error.message, new RegExp(`^${name}\\.pkl: refusing global posix\\.system`));
      return true;
    });
  }
});

test('allow-listed names cannot be misused', () => {
  // PROTO 2; GLOBAL numpy ndarray; EMPTY_TUPLE; REDUCE; STOP — calling the class itself.
  const callNdarray = Buffer.concat([Buffer.from([0x80, 2]), Buffer.from('cnumpy\nndarray\n', 'latin1'), Buffer.from([0x29, 0x52, 0x2e])]);
  assert.throws(() => unpickle(callNdarray), /refusing to call numpy\.ndarray/);
  // PROTO 2; GLOBAL numpy dtype; STOP — a global returned as data.
  const bareGlobal = Buffer.concat([Buffer.from([0x80, 2]), Buffer.from('cnumpy\ndtype\n', 'latin1'), Buffer.from([0x2e])]);
  assert.throws(() => unpickle(bareGlobal), /global numpy\.dtype cannot be part of the data/);
});

test('unsupported data is named: opcode, dtype, protocol, truncation', () => {
  assert.throws(() => load('set_p4'), /set_p4\.pkl: unsupported pickle opcode EMPTY_SET \(0x8f\)/);
  assert.throws(() => load('np_int32_p4'), /numpy dtype 'i4' is not supported/);
  assert.throws(() => load('list_p0'), /not a protocol 2–5 pickle/);
  const truncated = Buffer.from(FIXTURES.records_p2, 'base64').subarray(0, 40);
  assert.throws(() => unpickle(truncated, { source: 'cut.pkl' }), /^InputError: cut\.pkl: pickle ends unexpectedly/);
  // In protocol 4 the FRAME header already announces more bytes than are there.
  const cutFrame = Buffer.from(FIXTURES.records_p4, 'base64').subarray(0, 40);
  assert.throws(() => unpickle(cutFrame), /length field is larger than the pickle/);
  assert.throws(() => unpickle(Buffer.from([0x80, 6, 0x4e, 0x2e])), /pickle protocol 6 is not supported/);
});
