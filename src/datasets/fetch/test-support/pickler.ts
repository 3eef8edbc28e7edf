/**
 * Test support: a small pickler that writes embedding records the way CPython's pickle module
 * does (protocol 2 or 4), as plain float lists or as numpy arrays following numpy's `__reduce__`
 * format. Used to make a stand-in for MetaTool's `tool_embedding.pkl` without Python.
 */

export interface PickleRecordsOptions {
  readonly protocol: 2 | 4;
  /** Write each embedding as a numpy array of this dtype instead of a list of Python floats. */
  readonly numpy?: 'float32' | 'float64';
  /** numpy < 2 names `numpy.core`; numpy ≥ 2 `numpy._core`. */
  readonly numpyCore?: 'numpy.core' | 'numpy._core';
}

class Writer {
  private readonly chunks: Buffer[] = [];
  private memoCount = 0;
  private readonly memoOf = new Map<string, number>();

  constructor(private readonly protocol: 2 | 4) {}

  op(...bytes: number[]): void {
    this.chunks.push(Buffer.from(bytes));
  }
  raw(buffer: Buffer): void {
    this.chunks.push(buffer);
  }
  u32(n: number): Buffer {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    return b;
  }

  /** Stores the top of the stack in the memo, as CPython does after every container and string. */
  memoize(key?: string): void {
    const index = this.memoCount++;
    if (key !== undefined) this.memoOf.set(key, index);
    if (this.protocol >= 4) this.op(0x94); // MEMOIZE
    else if (index < 256) this.op(0x71, index); // BINPUT
    else this.raw(Buffer.concat([Buffer.from([0x72]), this.u32(index)])); // LONG_BINPUT
  }

  /** Pushes a memoized value again if it was seen; returns false when it was not. */
  get(key: string): boolean {
    const index = this.memoOf.get(key);
    if (index === undefined) return false;
    if (index < 256) this.op(0x68, index); // BINGET
    else this.raw(Buffer.concat([Buffer.from([0x6a]), this.u32(index)])); // LONG_BINGET
    return true;
  }

  str(text: string, memoKey = `str:${text}`): void {
    if (this.get(memoKey)) return;
    const bytes = Buffer.from(text, 'utf8');
    if (this.protocol >= 4 && bytes.length < 256) this.raw(Buffer.concat([Buffer.from([0x8c, bytes.length]), bytes])); // SHORT_BINUNICODE
    else this.raw(Buffer.concat([Buffer.from([0x58]), this.u32(bytes.length), bytes])); // BINUNICODE
    this.memoize(memoKey);
  }

  bytes(data: Buffer): void {
    if (this.protocol >= 4) {
      if (data.length < 256) this.raw(Buffer.concat([Buffer.from([0x43, data.length]), data])); // SHORT_BINBYTES
      else this.raw(Buffer.concat([Buffer.from([0x42]), this.u32(data.length), data])); // BINBYTES
      this.memoize();
      return;
    }
    // Protocol 2: _codecs.encode(<bytes as latin-1 text>, 'latin1'), exactly as Python 3 writes it.
    this.global('_codecs', 'encode');
    this.str(data.toString('latin1'), `bytes:${this.memoCount}`);
    this.str('latin1');
    this.op(0x86); // TUPLE2
    this.memoize();
    this.op(0x52); // REDUCE
    this.memoize();
  }

  global(module: string, name: string): void {
    if (this.get(`global:${module}.${name}`)) return;
    if (this.protocol >= 4) {
      this.str(module);
      this.str(name);
      this.op(0x93); // STACK_GLOBAL
    } else {
      this.raw(Buffer.from(`c${module}\n${name}\n`, 'utf8')); // GLOBAL
    }
    this.memoize(`global:${module}.${name}`);
  }

  float(x: number): void {
    const b = Buffer.alloc(9);
    b[0] = 0x47; // BINFLOAT, big-endian
    b.writeDoubleBE(x, 1);
    this.raw(b);
  }

  smallInt(n: number): void {
    this.op(0x4b, n); // BININT1
  }

  finish(): Buffer {
    this.op(0x2e); // STOP
    const body = Buffer.concat(this.chunks);
    if (this.protocol < 4) return Buffer.concat([Buffer.from([0x80, this.protocol]), body]);
    // One FRAME around everything (CPython splits at 64 KiB; one frame is equally valid).
    const frame = Buffer.alloc(9);
    frame[0] = 0x95;
    frame.writeBigUInt64LE(BigInt(body.length), 1);
    return Buffer.concat([Buffer.from([0x80, this.protocol]), frame, body]);
  }
}

/** Pickles `[{tool, embedding}]` like `pickle.dumps(records, protocol)` would. */
export function pickleRecords(records: ReadonlyArray<{ readonly tool: string; readonly embedding: readonly number[] }>, options: PickleRecordsOptions): Buffer {
  const w = new Writer(options.protocol);
  w.op(0x5d); // EMPTY_LIST
  w.memoize();
  // CPython batches APPENDS/SETITEMS by 1000 items.
  forBatches(records, (batch) => {
    w.op(0x28); // MARK
    for (const record of batch) {
      w.op(0x7d); // EMPTY_DICT
      w.memoize();
      w.op(0x28); // MARK
      w.str('tool');
      w.str(record.tool);
      w.str('embedding');
      if (options.numpy) writeNumpy(w, record.embedding, options.numpy, options.numpyCore ?? 'numpy._core');
      else writeFloatList(w, record.embedding);
      w.op(0x75); // SETITEMS
    }
    w.op(0x65); // APPENDS
  });
  return w.finish();
}

function writeFloatList(w: Writer, values: readonly number[]): void {
  w.op(0x5d); // EMPTY_LIST
  w.memoize();
  forBatches(values, (batch) => {
    w.op(0x28); // MARK
    for (const x of batch) w.float(x);
    w.op(0x65); // APPENDS
  });
}

/** numpy's ndarray.__reduce__: _reconstruct(ndarray, (0,), b'b') then BUILD (1, shape, dtype, False, raw). */
function writeNumpy(w: Writer, values: readonly number[], dtype: 'float32' | 'float64', core: string): void {
  w.global(`${core}.multiarray`, '_reconstruct');
  w.global('numpy', 'ndarray');
  w.smallInt(0);
  w.op(0x85); // TUPLE1
  w.memoize();
  w.bytes(Buffer.from('b', 'latin1'));
  w.op(0x87); // TUPLE3
  w.memoize();
  w.op(0x52); // REDUCE
  w.memoize();
  w.op(0x28); // MARK (state tuple)
  w.smallInt(1);
  writeShape(w, values.length);
  w.global('numpy', 'dtype');
  w.str(dtype === 'float32' ? 'f4' : 'f8');
  w.op(0x89, 0x88, 0x87); // NEWFALSE NEWTRUE TUPLE3: dtype('f4', False, True)
  w.memoize();
  w.op(0x52); // REDUCE
  w.memoize();
  w.op(0x28); // MARK (dtype state)
  w.smallInt(3);
  w.str('<');
  w.op(0x4e, 0x4e, 0x4e); // NONE ×3
  w.raw(Buffer.from([0x4a, 0xff, 0xff, 0xff, 0xff, 0x4a, 0xff, 0xff, 0xff, 0xff])); // BININT -1, BININT -1
  w.smallInt(0);
  w.op(0x74); // TUPLE
  w.memoize();
  w.op(0x62); // BUILD (dtype)
  w.op(0x89); // NEWFALSE: not Fortran order
  const size = dtype === 'float32' ? 4 : 8;
  const data = Buffer.alloc(values.length * size);
  values.forEach((x, i) => (dtype === 'float32' ? data.writeFloatLE(x, i * 4) : data.writeDoubleLE(x, i * 8)));
  w.bytes(data);
  w.op(0x74); // TUPLE
  w.memoize();
  w.op(0x62); // BUILD (array)
}

function writeShape(w: Writer, length: number): void {
  if (length < 256) w.smallInt(length);
  else w.raw(Buffer.from([0x4d, length & 0xff, length >> 8])); // BININT2
  w.op(0x85); // TUPLE1
  w.memoize();
}

function forBatches<T>(items: readonly T[], each: (batch: readonly T[]) => void): void {
  for (let i = 0; i < items.length; i += 1000) each(items.slice(i, i + 1000));
}
