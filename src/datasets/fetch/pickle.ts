import { InputError } from '../../core/errors.js';

/**
 * A minimal, data-only unpickler for Python pickle protocols 2–5.
 *
 * It never runs code: a pickle can only name a global from a short allow-list (numpy's array
 * and dtype reconstructors, `_codecs.encode`), and each of those is a plain TypeScript function
 * that builds data. Every other global, and every opcode outside the supported set, is an error
 * naming it. Enough for lists/dicts/tuples of str/int/float/bool/None/bytes and numpy float arrays.
 */

/** A float array as numpy pickled it. `data` is in the stored order (Fortran order when `fortranOrder`). */
export class NdArray {
  constructor(
    readonly dtype: 'float32' | 'float64',
    readonly shape: readonly number[],
    readonly fortranOrder: boolean,
    readonly data: Float32Array | Float64Array,
  ) {}

  get size(): number {
    return this.data.length;
  }
}

/**
 * What an unpickled value becomes: `None`→null, bool, int→number (bigint beyond 2^53),
 * float→number, str→string, bytes/bytearray→Uint8Array, list and tuple→array, dict→Map,
 * numpy float array→NdArray, numpy float scalar→number.
 */
export type PickleValue = null | boolean | number | bigint | string | Uint8Array | NdArray | PickleValue[] | PickleDict;
export type PickleDict = Map<PickleValue, PickleValue>;

export interface UnpickleOptions {
  /** Names the data in error messages (a file path or URL). */
  readonly source?: string;
}

// ---- internal stack items (never escape `unpickle`) -------------------------------------------

/** A global the pickle named; only allow-listed ones are ever created. */
class PyGlobal {
  constructor(
    readonly module: string,
    readonly name: string,
  ) {}
  get qualified(): string {
    return `${this.module}.${this.name}`;
  }
}

/** A `numpy.dtype` under construction (REDUCE creates it, BUILD sets its byte order). */
class Dtype {
  /** Little-endian unless BUILD says otherwise (numpy always writes the order explicitly). */
  littleEndian = true;
  constructor(readonly kind: 'float32' | 'float64') {}
  get itemSize(): number {
    return this.kind === 'float32' ? 4 : 8;
  }
}

/** An ndarray created by `_reconstruct`, filled in by BUILD. */
class PendingArray {
  result: NdArray | undefined;
}

/** MARK is not a stack item: it saves the current stack in `marks` and starts a new one. */
type Item = PickleValue | PyGlobal | Dtype | PendingArray;

// ---- opcodes -----------------------------------------------------------------------------------

/** Every pickle opcode by byte, so an unsupported one can be named in the error. */
const OPCODE_NAMES: Readonly<Record<number, string>> = {
  0x28: 'MARK', 0x2e: 'STOP', 0x30: 'POP', 0x31: 'POP_MARK', 0x32: 'DUP', 0x46: 'FLOAT', 0x49: 'INT',
  0x4a: 'BININT', 0x4b: 'BININT1', 0x4c: 'LONG', 0x4d: 'BININT2', 0x4e: 'NONE', 0x50: 'PERSID',
  0x51: 'BINPERSID', 0x52: 'REDUCE', 0x53: 'STRING', 0x54: 'BINSTRING', 0x55: 'SHORT_BINSTRING',
  0x56: 'UNICODE', 0x58: 'BINUNICODE', 0x61: 'APPEND', 0x62: 'BUILD', 0x63: 'GLOBAL', 0x64: 'DICT',
  0x7d: 'EMPTY_DICT', 0x65: 'APPENDS', 0x67: 'GET', 0x68: 'BINGET', 0x69: 'INST', 0x6a: 'LONG_BINGET',
  0x6c: 'LIST', 0x5d: 'EMPTY_LIST', 0x6f: 'OBJ', 0x70: 'PUT', 0x71: 'BINPUT', 0x72: 'LONG_BINPUT',
  0x73: 'SETITEM', 0x74: 'TUPLE', 0x29: 'EMPTY_TUPLE', 0x75: 'SETITEMS', 0x47: 'BINFLOAT', 0x80: 'PROTO',
  0x81: 'NEWOBJ', 0x82: 'EXT1', 0x83: 'EXT2', 0x84: 'EXT4', 0x85: 'TUPLE1', 0x86: 'TUPLE2', 0x87: 'TUPLE3',
  0x88: 'NEWTRUE', 0x89: 'NEWFALSE', 0x8a: 'LONG1', 0x8b: 'LONG4', 0x42: 'BINBYTES', 0x43: 'SHORT_BINBYTES',
  0x8c: 'SHORT_BINUNICODE', 0x8d: 'BINUNICODE8', 0x8e: 'BINBYTES8', 0x8f: 'EMPTY_SET', 0x90: 'ADDITEMS',
  0x91: 'FROZENSET', 0x92: 'NEWOBJ_EX', 0x93: 'STACK_GLOBAL', 0x94: 'MEMOIZE', 0x95: 'FRAME',
  0x96: 'BYTEARRAY8', 0x97: 'NEXT_BUFFER', 0x98: 'READONLY_BUFFER',
};

// ---- allow-listed globals ----------------------------------------------------------------------

type GlobalHandler = (args: Item[], fail: (message: string) => never) => Item;

/** numpy moved `numpy.core` to `numpy._core` in 2.0; pickles name either. */
const NUMPY_CORE = ['numpy.core', 'numpy._core'];

const RECONSTRUCT: GlobalHandler = (args, fail) => {
  const [cls] = args;
  if (!(cls instanceof PyGlobal) || cls.qualified !== 'numpy.ndarray') fail('numpy _reconstruct is only supported for numpy.ndarray');
  return new PendingArray();
};

const DTYPE: GlobalHandler = (args, fail) => {
  const [spec] = args;
  if (spec === 'f4') return new Dtype('float32');
  if (spec === 'f8') return new Dtype('float64');
  return fail(`numpy dtype ${describe(spec)} is not supported (only float32 'f4' and float64 'f8')`);
};

const FROMBUFFER: GlobalHandler = (args, fail) => {
  const [buffer, dtype, shape, order] = args;
  if (!(buffer instanceof Uint8Array)) return fail('numpy _frombuffer expects bytes as its first argument');
  if (order !== 'C' && order !== 'F') return fail(`numpy _frombuffer order ${describe(order)} is not supported`);
  return makeArray(buffer, dtype, shape, order === 'F', fail);
};

const SCALAR: GlobalHandler = (args, fail) => {
  const [dtype, bytes] = args;
  if (!(bytes instanceof Uint8Array)) return fail('numpy scalar expects bytes as its second argument');
  const array = makeArray(bytes, dtype, [], false, fail);
  if (array.size !== 1) return fail(`numpy scalar holds ${bytes.length} bytes, not one ${array.dtype}`);
  return array.data[0] as number;
};

const CODECS_ENCODE: GlobalHandler = (args, fail) => {
  // Protocol 2 has no bytes opcode, so Python 3 writes bytes as _codecs.encode(<latin-1 text>, 'latin1').
  const [text, encoding] = args;
  if (typeof text !== 'string' || (encoding !== 'latin1' && encoding !== 'latin-1')) {
    return fail(`_codecs.encode is only supported as (str, 'latin1'), got encoding ${describe(encoding)}`);
  }
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0xff) return fail('_codecs.encode: text is not latin-1');
    out[i] = code;
  }
  return out;
};

/** The complete allow-list: module.name → handler. `numpy.ndarray` is only ever an argument. */
const ALLOWED_GLOBALS: ReadonlyMap<string, GlobalHandler | 'argument-only'> = new Map<string, GlobalHandler | 'argument-only'>([
  ...NUMPY_CORE.map((m) => [`${m}.multiarray._reconstruct`, RECONSTRUCT] as const),
  ...NUMPY_CORE.map((m) => [`${m}.multiarray.scalar`, SCALAR] as const),
  ...NUMPY_CORE.map((m) => [`${m}.numeric._frombuffer`, FROMBUFFER] as const),
  ['numpy.dtype', DTYPE],
  ['numpy.ndarray', 'argument-only'],
  ['_codecs.encode', CODECS_ENCODE],
]);

function makeArray(raw: Uint8Array, dtype: Item | undefined, shape: Item | undefined, fortranOrder: boolean, fail: (m: string) => never): NdArray {
  if (!(dtype instanceof Dtype)) return fail('numpy array without a numpy.dtype');
  if (!Array.isArray(shape) || !shape.every((n): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0)) {
    return fail('numpy array shape is not a tuple of non-negative integers');
  }
  const count = shape.reduce((a, b) => a * b, 1);
  if (raw.length !== count * dtype.itemSize) {
    return fail(`numpy array of shape (${shape.join(', ')}) ${dtype.kind} needs ${count * dtype.itemSize} bytes, got ${raw.length}`);
  }
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const data = dtype.kind === 'float32' ? new Float32Array(count) : new Float64Array(count);
  for (let i = 0; i < count; i++) {
    data[i] = dtype.kind === 'float32' ? view.getFloat32(i * 4, dtype.littleEndian) : view.getFloat64(i * 8, dtype.littleEndian);
  }
  return new NdArray(dtype.kind, shape.slice(), fortranOrder, data);
}

/** BUILD on a dtype: state (version, byteorder, subarray, names, fields, elsize, alignment, flags). */
function buildDtype(dtype: Dtype, state: Item, fail: (m: string) => never): void {
  if (!Array.isArray(state) || state.length < 8) return fail('numpy dtype state is not the expected 8-tuple');
  const [version, order, subarray, names, fields] = state;
  if (version !== 3 && version !== 4) return fail(`numpy dtype state version ${describe(version)} is not supported`);
  if (subarray !== null || names !== null || fields !== null) return fail('structured or sub-array numpy dtypes are not supported');
  // numpy pickles the concrete order ('<' or '>'); '=' (native) is read as little-endian like every
  // machine assay runs on.
  if (order === '<' || order === '=' || order === '|') dtype.littleEndian = true;
  else if (order === '>') dtype.littleEndian = false;
  else return fail(`numpy dtype byte order ${describe(order)} is not supported`);
}

/** BUILD on an ndarray: state ([1,] shape, dtype, is_fortran, raw bytes), as numpy's __reduce__ writes it. */
function buildArray(target: PendingArray, state: Item, fail: (m: string) => never): void {
  if (!Array.isArray(state) || (state.length !== 5 && state.length !== 4)) return fail('numpy array state is not the expected tuple');
  const [shape, dtype, isFortran, raw] = state.length === 5 ? state.slice(1) : state;
  if (state.length === 5 && state[0] !== 1) return fail(`numpy array state version ${describe(state[0])} is not supported`);
  if (typeof isFortran !== 'boolean' && isFortran !== 0 && isFortran !== 1) return fail('numpy array is_fortran flag is not a bool');
  if (!(raw instanceof Uint8Array)) return fail('numpy array data is not bytes (object arrays are not supported)');
  target.result = makeArray(raw, dtype, shape, Boolean(isFortran), fail);
}

// ---- the machine -------------------------------------------------------------------------------

/**
 * Decodes a pickle (protocol 2–5) into plain data. Throws `InputError` naming the source and the
 * byte offset for anything it does not support: an opcode outside the data subset, a global
 * outside the allow-list, or a malformed stream.
 */
export function unpickle(bytes: Uint8Array, options: UnpickleOptions = {}): PickleValue {
  const source = options.source ?? 'pickle';
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = new TextDecoder('utf-8');
  let pos = 0;
  let opStart = 0;
  let stack: Item[] = [];
  const marks: Item[][] = [];
  const memo = new Map<number, Item>();

  const fail = (message: string): never => {
    throw new InputError(`${source}: ${message} (at byte ${opStart})`, { file: source });
  };
  const need = (n: number): void => {
    if (n < 0 || pos + n > bytes.length) fail('pickle ends unexpectedly');
  };
  const u8 = (): number => { need(1); return bytes[pos++] as number; };
  const u16 = (): number => { need(2); const v = view.getUint16(pos, true); pos += 2; return v; };
  const u32 = (): number => { need(4); const v = view.getUint32(pos, true); pos += 4; return v; };
  const i32 = (): number => { need(4); const v = view.getInt32(pos, true); pos += 4; return v; };
  const u64 = (): number => {
    need(8);
    const v = view.getBigUint64(pos, true);
    pos += 8;
    if (v > BigInt(bytes.length)) fail('length field is larger than the pickle');
    return Number(v);
  };
  const take = (n: number): Uint8Array => { need(n); const out = bytes.subarray(pos, pos + n); pos += n; return out; };
  const line = (): string => {
    const end = bytes.indexOf(0x0a, pos);
    if (end === -1) fail('pickle ends inside a GLOBAL line');
    const out = text.decode(bytes.subarray(pos, end));
    pos = end + 1;
    return out;
  };

  const pop = (): Item => {
    if (stack.length === 0) fail('stack underflow');
    return stack.pop() as Item;
  };
  const top = (): Item => {
    if (stack.length === 0) fail('stack underflow');
    return stack[stack.length - 1] as Item;
  };
  const popMark = (): Item[] => {
    const items = stack;
    const previous = marks.pop();
    if (!previous) return fail('no MARK to pop to');
    stack = previous;
    return items;
  };
  const push = (item: Item): void => {
    stack.push(item);
  };
  const asList = (item: Item, op: string): PickleValue[] => {
    if (!Array.isArray(item)) return fail(`${op} on something that is not a list`);
    return item;
  };
  const asDict = (item: Item, op: string): PickleDict => {
    if (!(item instanceof Map)) return fail(`${op} on something that is not a dict`);
    return item;
  };
  const resolveGlobal = (module: string, name: string): PyGlobal => {
    const qualified = `${module}.${name}`;
    if (!ALLOWED_GLOBALS.has(qualified)) fail(`refusing global ${qualified}: only numpy float arrays and plain data can be read`);
    return new PyGlobal(module, name);
  };
  const decodeLong = (raw: Uint8Array): number | bigint => {
    if (raw.length === 0) return 0;
    let value = 0n;
    for (let i = raw.length - 1; i >= 0; i--) value = (value << 8n) | BigInt(raw[i] as number);
    if (((raw[raw.length - 1] as number) & 0x80) !== 0) value -= 1n << BigInt(raw.length * 8);
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
  };
  const utf8 = (raw: Uint8Array): string => text.decode(raw);

  opStart = 0;
  if (u8() !== 0x80) fail('not a protocol 2–5 pickle (no PROTO opcode at the start)');
  const protocol = u8();
  if (protocol < 2 || protocol > 5) fail(`pickle protocol ${protocol} is not supported (2–5 are)`);

  for (;;) {
    opStart = pos;
    const op = u8();
    switch (op) {
      case 0x80: { // PROTO (may repeat)
        const p = u8();
        if (p < 2 || p > 5) fail(`pickle protocol ${p} is not supported (2–5 are)`);
        break;
      }
      case 0x95: // FRAME: a length prefix for buffering; the opcodes simply continue inline.
        u64();
        break;
      case 0x2e: { // STOP
        const result = pop();
        return finish(result, fail);
      }
      case 0x28: marks.push(stack); stack = []; break; // MARK
      case 0x30: pop(); break; // POP
      case 0x31: popMark(); break; // POP_MARK
      case 0x32: push(top()); break; // DUP
      case 0x4e: push(null); break; // NONE
      case 0x88: push(true); break; // NEWTRUE
      case 0x89: push(false); break; // NEWFALSE
      case 0x4a: push(i32()); break; // BININT
      case 0x4b: push(u8()); break; // BININT1
      case 0x4d: push(u16()); break; // BININT2
      case 0x8a: push(decodeLong(take(u8()))); break; // LONG1
      case 0x8b: { // LONG4
        const n = i32();
        if (n < 0) fail('negative LONG4 length');
        push(decodeLong(take(n)));
        break;
      }
      case 0x47: { // BINFLOAT: big-endian IEEE double
        need(8);
        push(view.getFloat64(pos, false));
        pos += 8;
        break;
      }
      case 0x8c: push(utf8(take(u8()))); break; // SHORT_BINUNICODE
      case 0x58: push(utf8(take(u32()))); break; // BINUNICODE
      case 0x8d: push(utf8(take(u64()))); break; // BINUNICODE8
      // Bytes are copied into a plain Uint8Array (Buffer#slice would not copy) so the result
      // never aliases, or keeps alive, the input buffer.
      case 0x43: push(new Uint8Array(take(u8()))); break; // SHORT_BINBYTES
      case 0x42: push(new Uint8Array(take(u32()))); break; // BINBYTES
      case 0x8e: push(new Uint8Array(take(u64()))); break; // BINBYTES8
      case 0x96: push(new Uint8Array(take(u64()))); break; // BYTEARRAY8
      case 0x5d: push([]); break; // EMPTY_LIST
      case 0x29: push([]); break; // EMPTY_TUPLE
      case 0x7d: push(new Map()); break; // EMPTY_DICT
      case 0x6c: push(checkValues(popMark(), 'LIST', fail)); break; // LIST
      case 0x74: push(asTuple(popMark())); break; // TUPLE
      case 0x85: { const a = pop(); push([a] as PickleValue[]); break; } // TUPLE1
      case 0x86: { const b = pop(); const a = pop(); push([a, b] as PickleValue[]); break; } // TUPLE2
      case 0x87: { const c = pop(); const b = pop(); const a = pop(); push([a, b, c] as PickleValue[]); break; } // TUPLE3
      case 0x61: { const v = pop(); asList(top(), 'APPEND').push(checkValue(v, 'APPEND', fail)); break; } // APPEND
      case 0x65: { // APPENDS
        const items = checkValues(popMark(), 'APPENDS', fail);
        const list = asList(top(), 'APPENDS');
        for (const item of items) list.push(item);
        break;
      }
      case 0x64: { // DICT
        const items = checkValues(popMark(), 'DICT', fail);
        const dict: PickleDict = new Map();
        setItems(dict, items, fail);
        push(dict);
        break;
      }
      case 0x73: { // SETITEM
        const v = pop();
        const k = pop();
        asDict(top(), 'SETITEM').set(checkValue(k, 'SETITEM', fail), checkValue(v, 'SETITEM', fail));
        break;
      }
      case 0x75: { // SETITEMS
        const items = checkValues(popMark(), 'SETITEMS', fail);
        setItems(asDict(top(), 'SETITEMS'), items, fail);
        break;
      }
      case 0x71: memo.set(u8(), top()); break; // BINPUT
      case 0x72: memo.set(u32(), top()); break; // LONG_BINPUT
      case 0x94: memo.set(memo.size, top()); break; // MEMOIZE
      case 0x68: case 0x6a: { // BINGET, LONG_BINGET
        const index = op === 0x68 ? u8() : u32();
        if (!memo.has(index)) fail(`memo entry ${index} is not defined`);
        push(memo.get(index) as Item);
        break;
      }
      case 0x63: { // GLOBAL "module\nname\n"
        const module = line();
        const name = line();
        push(resolveGlobal(module, name));
        break;
      }
      case 0x93: { // STACK_GLOBAL
        const name = pop();
        const module = pop();
        if (typeof module !== 'string' || typeof name !== 'string') fail('STACK_GLOBAL needs two strings');
        push(resolveGlobal(module as string, name as string));
        break;
      }
      case 0x52: { // REDUCE
        const args = pop();
        const callable = pop();
        if (!(callable instanceof PyGlobal)) return fail('REDUCE on something that is not a global');
        const handler = ALLOWED_GLOBALS.get(callable.qualified);
        if (!handler || handler === 'argument-only') return fail(`refusing to call ${callable.qualified}`);
        if (!Array.isArray(args)) return fail(`arguments of ${callable.qualified} are not a tuple`);
        push(handler(args, (m) => fail(`${callable.qualified}: ${m}`)));
        break;
      }
      case 0x62: { // BUILD
        const state = pop();
        const target = top();
        if (target instanceof PendingArray) buildArray(target, state, fail);
        else if (target instanceof Dtype) buildDtype(target, state, fail);
        else fail('BUILD is only supported on numpy arrays and dtypes');
        break;
      }
      default: {
        const name = OPCODE_NAMES[op];
        fail(name
          ? `unsupported pickle opcode ${name} (0x${op.toString(16)}); only plain data and numpy float arrays can be read`
          : `unknown pickle opcode 0x${op.toString(16)}`);
      }
    }
  }
}

function setItems(dict: PickleDict, items: PickleValue[], fail: (m: string) => never): void {
  if (items.length % 2 !== 0) fail('odd number of items for a dict');
  for (let i = 0; i < items.length; i += 2) dict.set(items[i] as PickleValue, items[i + 1] as PickleValue);
}

/** Values going into containers: numpy helpers may appear (resolved at the end), globals may not. */
function checkValue(item: Item, op: string, fail: (m: string) => never): PickleValue {
  if (item instanceof PyGlobal) return fail(`${op}: a global (${item.qualified}) cannot be stored as data`);
  // Dtypes and pending arrays are replaced in `finish`; typed as values until then.
  return item as PickleValue;
}

function checkValues(items: Item[], op: string, fail: (m: string) => never): PickleValue[] {
  return items.map((item) => checkValue(item, op, fail));
}

/** Tuples may carry globals and dtypes (arguments of REDUCE); `finish` rejects any left in the data. */
function asTuple(items: Item[]): PickleValue[] {
  return items as PickleValue[];
}

/**
 * Replaces built numpy arrays by their NdArray, in place, everywhere in the result, and rejects
 * anything that is not data (a global, a dtype, an array never built). Iterative: no recursion limit.
 */
function finish(result: Item, fail: (m: string) => never): PickleValue {
  const resolve = (item: Item): PickleValue => {
    if (item instanceof PendingArray) {
      if (!item.result) return fail('numpy array was never given its data (no BUILD)');
      return item.result;
    }
    if (item instanceof PyGlobal) return fail(`global ${item.qualified} cannot be part of the data`);
    if (item instanceof Dtype) return fail('a numpy dtype cannot be part of the data');
    return item;
  };
  const root = resolve(result);
  const seen = new Set<object>();
  const work: PickleValue[] = [root];
  while (work.length > 0) {
    const value = work.pop();
    if (value === null || typeof value !== 'object' || value instanceof Uint8Array || value instanceof NdArray || seen.has(value)) continue;
    seen.add(value);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const resolved = resolve(value[i] as Item);
        value[i] = resolved;
        work.push(resolved);
      }
    } else {
      for (const [key, v] of value) {
        const resolved = resolve(v as Item);
        value.set(key, resolved);
        work.push(resolve(key as Item), resolved);
      }
    }
  }
  return root;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (value === null) return 'None';
  if (typeof value === 'object') return Array.isArray(value) ? 'a tuple' : 'an object';
  return String(value);
}
