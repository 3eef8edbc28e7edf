import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { endianness, tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A writer of tiny random-weight llama models in the GGUF v3 format, so that tests and benchmarks
 * can run real inference through node-llama-cpp with no download and no committed model file.
 *
 * The model is nonsense on purpose, but shaped so the library treats it like a real chat model:
 * - an SPM ("llama") tokenizer with byte fallback: `<unk> <s> </s> <0x00>..<0xFF> <|im_start|>
 *   <|im_end|> ▁` (262 tokens). `▁` is a NORMAL token so spaces round-trip (without it they fall back
 *   to bytes and detokenize as a literal `▁`);
 * - `<|im_start|>`/`<|im_end|>` are CONTROL tokens and the file carries a ChatML template, so
 *   node-llama-cpp picks its ChatML wrapper (the `chatml-tools` variant mentions `tools`, for code
 *   that decides on native function calling from the template);
 * - "ASCII bias": embedding dimension 0 is a large constant and column 0 of `output.weight` is
 *   +L for printable ASCII / newline / space and -L for every other token (L = 8/√embd, a ~16-logit
 *   gap after the final RMSNorm), so the text is printable ASCII and never broken UTF-8 (which would
 *   make llama.cpp's and JavaScript's string lengths disagree);
 * - `</s>` and `<|im_end|>` get `eosBoost` extra logits: 1.1 (default) ≈ 3% stop chance per token so
 *   chats end by themselves; -30 means "never stops" (benchmarks), because node-llama-cpp ignores a
 *   "never" token bias on end-of-generation tokens.
 */
export interface TinyGgufOptions {
  /** Embedding width (default 64). Must be divisible by `heads`. */
  readonly embd?: number;
  readonly layers?: number;
  readonly heads?: number;
  /** Key/value heads (default = heads). */
  readonly kvHeads?: number;
  /** Feed-forward width (default 128). */
  readonly ffn?: number;
  /** Training context length written into the file (default 2048). */
  readonly contextLength?: number;
  /** Weight RNG seed (default 1): the same options give byte-identical files. */
  readonly seed?: number;
  /** Standard deviation of the random weights (default 0.02). */
  readonly std?: number;
  /** Store 2-D tensors as F16 (half the size; default F32). */
  readonly f16?: boolean;
  /** Default true; false gives varied embeddings but text full of U+FFFD. */
  readonly asciiBias?: boolean;
  /** Extra logit for the end tokens (default 1.1; -30 = never stops). */
  readonly eosBoost?: number;
  /** `chatml` (default) or `chatml-tools` (a ChatML template that renders a tool list). */
  readonly template?: 'chatml' | 'chatml-tools';
}

/** The preset the benchmarks call "~85M parameters" (F16, about 170 MB on disk). */
export const MODEL_85M: TinyGgufOptions = { embd: 768, layers: 12, heads: 12, ffn: 2048, f16: true };

export interface TinyGgufFile {
  readonly path: string;
  readonly parameters: number;
  readonly bytes: number;
}

// GGUF metadata value types and ggml tensor types (the subset used here).
const U32 = 4;
const I32 = 5;
const F32 = 6;
const BOOL = 7;
const STRING = 8;
const ARRAY = 9;
const GGML_F32 = 0;
const GGML_F16 = 1;
const ALIGNMENT = 32;

const TOKEN_UNKNOWN = 2;
const TOKEN_NORMAL = 1;
const TOKEN_CONTROL = 3;
const TOKEN_BYTE = 6;
const BOS = 1;
const EOS = 2;
// <|im_start|> is token 259 (written by the vocabulary below); only <|im_end|> needs its id here (the eos boost).
const IM_END = 260;

const CHATML =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";
const CHATML_TOOLS =
  "{% if tools %}{{'<|im_start|>system\\nTools:\\n'}}{% for tool in tools %}{{ tool | tojson }}{{'\\n'}}{% endfor %}{{'<|im_end|>\\n'}}{% endif %}" +
  CHATML;

type Scalar = { type: typeof U32 | typeof I32 | typeof F32 | typeof BOOL | typeof STRING; value: number | boolean | string };
type Value = Scalar | { type: typeof ARRAY; itemType: typeof F32 | typeof I32 | typeof STRING; items: readonly (number | string)[] };

interface TensorPlan {
  readonly name: string;
  /** ne[0] is the contiguous (matmul input) dimension. */
  readonly shape: readonly number[];
  readonly init: 'normal' | 'ones';
}

/** Growable little-endian byte buffer for the header (the tensor data is written in place). */
class ByteWriter {
  private buffer = Buffer.alloc(1 << 16);
  length = 0;

  private reserve(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    const grown = Buffer.alloc(Math.max(this.buffer.length * 2, this.length + n));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
  u8(x: number): void {
    this.reserve(1);
    this.length = this.buffer.writeUInt8(x, this.length);
  }
  u32(x: number): void {
    this.reserve(4);
    this.length = this.buffer.writeUInt32LE(x, this.length);
  }
  i32(x: number): void {
    this.reserve(4);
    this.length = this.buffer.writeInt32LE(x, this.length);
  }
  u64(x: number): void {
    this.reserve(8);
    this.length = this.buffer.writeBigUInt64LE(BigInt(x), this.length);
  }
  f32(x: number): void {
    this.reserve(4);
    this.length = this.buffer.writeFloatLE(x, this.length);
  }
  string(s: string): void {
    const bytes = Buffer.from(s, 'utf8');
    this.u64(bytes.length);
    this.reserve(bytes.length);
    this.length += bytes.copy(this.buffer, this.length);
  }
  padTo(alignment: number): void {
    while (this.length % alignment !== 0) this.u8(0);
  }
  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

function writeScalar(w: ByteWriter, type: number, value: number | boolean | string): void {
  if (type === U32) w.u32(value as number);
  else if (type === I32) w.i32(value as number);
  else if (type === F32) w.f32(value as number);
  else if (type === BOOL) w.u8(value ? 1 : 0);
  else w.string(value as string);
}

/** The vocabulary and token types (ids are the constants above). */
function vocabulary(): { tokens: string[]; types: number[] } {
  const tokens = ['<unk>', '<s>', '</s>'];
  const types = [TOKEN_UNKNOWN, TOKEN_CONTROL, TOKEN_CONTROL];
  for (let byte = 0; byte < 256; byte++) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(TOKEN_BYTE);
  }
  tokens.push('<|im_start|>', '<|im_end|>', '\u2581');
  types.push(TOKEN_CONTROL, TOKEN_CONTROL, TOKEN_NORMAL);
  return { tokens, types };
}

/** Printable ASCII, newline and the SPM space: the tokens the ASCII bias favours. */
function isPrintable(id: number): boolean {
  if (id === 261) return true;
  const byte = id - 3;
  return id >= 3 && id <= 258 && ((byte >= 0x20 && byte <= 0x7e) || byte === 0x0a);
}

/** mulberry32: small, fast, and the same numbers on every platform. */
function seededUniform(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** float32 → IEEE half, round-to-nearest; tiny values flush to zero (fine for random weights). */
function toHalf(bits32: number): number {
  const sign = (bits32 >>> 16) & 0x8000;
  const exponent = ((bits32 >>> 23) & 0xff) - 127 + 15;
  const mantissa = bits32 & 0x7fffff;
  if (exponent <= 0) return sign;
  if (exponent >= 31) return sign | 0x7c00;
  return (sign | (exponent << 10)) + ((mantissa + 0x1000) >>> 13);
}

/** The whole file in memory (about 0.5 MB with the defaults, 170 MB for `MODEL_85M`). */
export function buildTinyGguf(options: TinyGgufOptions = {}): { bytes: Buffer; parameters: number } {
  const embd = options.embd ?? 64;
  const layers = options.layers ?? 2;
  const heads = options.heads ?? 4;
  const kvHeads = options.kvHeads ?? heads;
  const ffn = options.ffn ?? 128;
  const std = options.std ?? 0.02;
  const f16 = options.f16 ?? false;
  const asciiBias = options.asciiBias ?? true;
  const eosBoost = options.eosBoost ?? 1.1;
  if (endianness() !== 'LE') throw new Error('tiny-gguf writes tensors through typed arrays and needs a little-endian machine');
  const headDim = embd / heads;
  if (!Number.isInteger(headDim)) throw new Error(`embd (${embd}) must be divisible by heads (${heads})`);
  const { tokens, types } = vocabulary();
  const vocab = tokens.length;

  const metadata: [string, Value][] = [
    ['general.architecture', { type: STRING, value: 'llama' }],
    ['general.name', { type: STRING, value: `tiny-random-llama-${embd}x${layers}` }],
    ['general.alignment', { type: U32, value: ALIGNMENT }],
    ['general.file_type', { type: U32, value: f16 ? 1 : 0 }],
    ['llama.context_length', { type: U32, value: options.contextLength ?? 2048 }],
    ['llama.embedding_length', { type: U32, value: embd }],
    ['llama.block_count', { type: U32, value: layers }],
    ['llama.feed_forward_length', { type: U32, value: ffn }],
    ['llama.attention.head_count', { type: U32, value: heads }],
    ['llama.attention.head_count_kv', { type: U32, value: kvHeads }],
    ['llama.attention.layer_norm_rms_epsilon', { type: F32, value: 1e-5 }],
    ['llama.rope.dimension_count', { type: U32, value: headDim }],
    ['llama.rope.freq_base', { type: F32, value: 10000 }],
    ['llama.vocab_size', { type: U32, value: vocab }],
    ['tokenizer.ggml.model', { type: STRING, value: 'llama' }],
    ['tokenizer.ggml.tokens', { type: ARRAY, itemType: STRING, items: tokens }],
    ['tokenizer.ggml.scores', { type: ARRAY, itemType: F32, items: tokens.map(() => 0) }],
    ['tokenizer.ggml.token_type', { type: ARRAY, itemType: I32, items: types }],
    ['tokenizer.ggml.bos_token_id', { type: U32, value: BOS }],
    ['tokenizer.ggml.eos_token_id', { type: U32, value: EOS }],
    ['tokenizer.ggml.eot_token_id', { type: U32, value: IM_END }],
    ['tokenizer.ggml.unknown_token_id', { type: U32, value: 0 }],
    ['tokenizer.ggml.add_bos_token', { type: BOOL, value: true }],
    ['tokenizer.ggml.add_eos_token', { type: BOOL, value: false }],
    ['tokenizer.ggml.add_space_prefix', { type: BOOL, value: false }],
    ['tokenizer.chat_template', { type: STRING, value: options.template === 'chatml-tools' ? CHATML_TOOLS : CHATML }],
  ];

  const tensors: TensorPlan[] = [{ name: 'token_embd.weight', shape: [embd, vocab], init: 'normal' }];
  for (let i = 0; i < layers; i++) {
    const p = `blk.${i}.`;
    tensors.push(
      { name: `${p}attn_norm.weight`, shape: [embd], init: 'ones' },
      { name: `${p}attn_q.weight`, shape: [embd, heads * headDim], init: 'normal' },
      { name: `${p}attn_k.weight`, shape: [embd, kvHeads * headDim], init: 'normal' },
      { name: `${p}attn_v.weight`, shape: [embd, kvHeads * headDim], init: 'normal' },
      { name: `${p}attn_output.weight`, shape: [heads * headDim, embd], init: 'normal' },
      { name: `${p}ffn_norm.weight`, shape: [embd], init: 'ones' },
      { name: `${p}ffn_gate.weight`, shape: [embd, ffn], init: 'normal' },
      { name: `${p}ffn_up.weight`, shape: [embd, ffn], init: 'normal' },
      { name: `${p}ffn_down.weight`, shape: [ffn, embd], init: 'normal' },
    );
  }
  tensors.push({ name: 'output_norm.weight', shape: [embd], init: 'ones' }, { name: 'output.weight', shape: [embd, vocab], init: 'normal' });

  const header = new ByteWriter();
  header.u32(0x46554747); // "GGUF" read as a little-endian u32
  header.u32(3);
  header.u64(tensors.length);
  header.u64(metadata.length);
  for (const [key, entry] of metadata) {
    header.string(key);
    header.u32(entry.type);
    if (entry.type === ARRAY) {
      header.u32(entry.itemType);
      header.u64(entry.items.length);
      for (const item of entry.items) writeScalar(header, entry.itemType, item);
    } else writeScalar(header, entry.type, entry.value);
  }
  // 1-D norm weights stay F32 even in an F16 file, as llama.cpp's converters do.
  const elementSize = (t: TensorPlan): number => (f16 && t.shape.length === 2 ? 2 : 4);
  const count = (t: TensorPlan): number => t.shape.reduce((a, b) => a * b, 1);
  const offsets: number[] = [];
  let dataSize = 0;
  for (const t of tensors) {
    header.string(t.name);
    header.u32(t.shape.length);
    for (const d of t.shape) header.u64(d);
    header.u32(elementSize(t) === 2 ? GGML_F16 : GGML_F32);
    header.u64(dataSize);
    offsets.push(dataSize);
    dataSize = Math.ceil((dataSize + count(t) * elementSize(t)) / ALIGNMENT) * ALIGNMENT;
  }
  header.padTo(ALIGNMENT);

  const head = header.bytes();
  const file = Buffer.alloc(head.length + dataSize);
  head.copy(file, 0);
  const uniform = seededUniform(options.seed ?? 1);
  const scratch = new Float32Array(1);
  const scratchBits = new Uint32Array(scratch.buffer);
  const anchor = 10 * Math.sqrt(embd);
  const bias = 8 / Math.sqrt(embd);
  tensors.forEach((t, index) => {
    const n = count(t);
    const start = head.length + (offsets[index] as number);
    const values = new Float32Array(n);
    if (t.init === 'ones') values.fill(1);
    else {
      // Box–Muller, one normal per pair of uniforms (simple beats clever here).
      for (let j = 0; j < n; j++) values[j] = Math.sqrt(-2 * Math.log(uniform() + 1e-12)) * Math.cos(2 * Math.PI * uniform()) * std;
      if (asciiBias && (t.name === 'token_embd.weight' || t.name === 'output.weight')) {
        for (let token = 0; token < vocab; token++) {
          // Row `token` is contiguous (ne = [embd, vocab]); only its column 0 changes.
          if (t.name === 'token_embd.weight') values[token * embd] = anchor;
          else if (token === EOS || token === IM_END) values[token * embd] = bias + eosBoost / Math.sqrt(embd);
          else values[token * embd] = isPrintable(token) ? bias : -bias;
        }
      }
    }
    // Typed arrays use the platform's byte order; GGUF is little-endian (checked below).
    if (elementSize(t) === 4) {
      Buffer.from(values.buffer).copy(file, start);
    } else {
      const halves = new Uint16Array(n);
      for (let j = 0; j < n; j++) {
        scratch[0] = values[j] as number;
        halves[j] = toHalf(scratchBits[0] as number);
      }
      Buffer.from(halves.buffer).copy(file, start);
    }
  });
  return { bytes: file, parameters: tensors.reduce((sum, t) => sum + count(t), 0) };
}

/** Writes a tiny model to `file`. */
export async function writeTinyGguf(file: string, options: TinyGgufOptions = {}): Promise<TinyGgufFile> {
  const { bytes, parameters } = buildTinyGguf(options);
  await writeFile(file, bytes);
  return { path: file, parameters, bytes: bytes.length };
}

/** A tiny model in a fresh temp dir; `dispose()` deletes the dir. */
export async function tempTinyGguf(options: TinyGgufOptions = {}, name = 'tiny.gguf'): Promise<TinyGgufFile & { dispose(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'assay-gguf-'));
  const written = await writeTinyGguf(path.join(dir, name), options);
  return { ...written, dispose: () => rm(dir, { recursive: true, force: true }) };
}
