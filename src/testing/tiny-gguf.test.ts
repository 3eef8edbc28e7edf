import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { buildTinyGguf, tempTinyGguf } from './tiny-gguf.js';

/** Reads back the parts of a GGUF header the tests check (a second, independent implementation). */
function readHeader(bytes: Buffer): { magic: string; version: number; tensors: Map<string, { shape: number[]; type: number; offset: number }>; metadata: Map<string, unknown>; dataStart: number } {
  let at = 0;
  const u32 = (): number => {
    const v = bytes.readUInt32LE(at);
    at += 4;
    return v;
  };
  const u64 = (): number => {
    const v = Number(bytes.readBigUInt64LE(at));
    at += 8;
    return v;
  };
  const str = (): string => {
    const n = u64();
    const s = bytes.toString('utf8', at, at + n);
    at += n;
    return s;
  };
  const scalar = (type: number): unknown => {
    switch (type) {
      case 4:
        return u32();
      case 5: {
        const v = bytes.readInt32LE(at);
        at += 4;
        return v;
      }
      case 6: {
        const v = bytes.readFloatLE(at);
        at += 4;
        return v;
      }
      case 7:
        return bytes[at++] === 1;
      case 8:
        return str();
      default:
        throw new Error(`type ${type}`);
    }
  };
  const magic = bytes.toString('ascii', 0, 4);
  at = 4;
  const version = u32();
  const nTensors = u64();
  const nKv = u64();
  const metadata = new Map<string, unknown>();
  for (let i = 0; i < nKv; i++) {
    const key = str();
    const type = u32();
    if (type === 9) {
      const itemType = u32();
      const n = u64();
      metadata.set(key, Array.from({ length: n }, () => scalar(itemType)));
    } else metadata.set(key, scalar(type));
  }
  const tensors = new Map<string, { shape: number[]; type: number; offset: number }>();
  for (let i = 0; i < nTensors; i++) {
    const name = str();
    const dims = u32();
    const shape = Array.from({ length: dims }, () => u64());
    tensors.set(name, { shape, type: u32(), offset: u64() });
  }
  return { magic, version, tensors, metadata, dataStart: Math.ceil(at / 32) * 32 };
}

test('tiny GGUF: a v3 llama file with the documented vocabulary, template and parameter count', () => {
  const { bytes, parameters } = buildTinyGguf();
  const header = readHeader(bytes);
  assert.equal(header.magic, 'GGUF');
  assert.equal(header.version, 3);
  // 2·(64·262) embeddings/output + 64 output norm + 2 layers·(2·64 norms + 4·64·64 attention + 3·64·128 ffn)
  assert.equal(parameters, 2 * 64 * 262 + 64 + 2 * (2 * 64 + 4 * 64 * 64 + 3 * 64 * 128));
  assert.equal(parameters, 115_776);
  assert.equal(header.tensors.size, 1 + 2 * 9 + 2);
  assert.deepEqual(header.tensors.get('output.weight')?.shape, [64, 262]);
  const tokens = header.metadata.get('tokenizer.ggml.tokens') as string[];
  assert.equal(tokens.length, 262);
  assert.deepEqual([tokens[0], tokens[2], tokens[3], tokens[258], tokens[259], tokens[260], tokens[261]], ['<unk>', '</s>', '<0x00>', '<0xFF>', '<|im_start|>', '<|im_end|>', '\u2581']);
  const types = header.metadata.get('tokenizer.ggml.token_type') as number[];
  assert.deepEqual([types[259], types[260], types[261], types[100]], [3, 3, 1, 6], 'ChatML markers are CONTROL, ▁ NORMAL, bytes BYTE');
  assert.match(String(header.metadata.get('tokenizer.chat_template')), /<\|im_start\|>/);
  assert.doesNotMatch(String(header.metadata.get('tokenizer.chat_template')), /tools/);
  // The last tensor ends inside the file, padded to the alignment.
  const last = header.tensors.get('output.weight');
  assert.ok(last);
  assert.equal(bytes.length, header.dataStart + Math.ceil((last.offset + 64 * 262 * 4) / 32) * 32);
});

test('tiny GGUF: ASCII bias and eos boost land in column 0 of output.weight', () => {
  const { bytes } = buildTinyGguf({ eosBoost: -30 });
  const header = readHeader(bytes);
  const out = header.tensors.get('output.weight');
  assert.ok(out);
  const row = (token: number): number => bytes.readFloatLE(header.dataStart + out.offset + token * 64 * 4);
  const L = 8 / Math.sqrt(64);
  assert.ok(Math.abs(row(3 + 0x41) - L) < 1e-6, "'A' is favoured");
  assert.ok(Math.abs(row(3 + 0x80) + L) < 1e-6, 'byte 0x80 is pushed down');
  assert.ok(Math.abs(row(2) - (L - 30 / 8)) < 1e-5, '</s> gets the (negative) boost');
});

test('tiny GGUF: deterministic per seed, F16 halves the 2-D tensors, the tools template renders tools', async () => {
  assert.ok(buildTinyGguf({ seed: 3 }).bytes.equals(buildTinyGguf({ seed: 3 }).bytes));
  assert.ok(!buildTinyGguf({ seed: 3 }).bytes.equals(buildTinyGguf({ seed: 4 }).bytes));
  const f16 = buildTinyGguf({ f16: true });
  assert.equal(readHeader(f16.bytes).tensors.get('output.weight')?.type, 1);
  assert.equal(readHeader(f16.bytes).tensors.get('output_norm.weight')?.type, 0);
  assert.ok(f16.bytes.length < buildTinyGguf().bytes.length * 0.6);
  const tools = readHeader(buildTinyGguf({ template: 'chatml-tools' }).bytes);
  assert.match(String(tools.metadata.get('tokenizer.chat_template')), /for tool in tools/);

  const started = performance.now();
  const file = await tempTinyGguf();
  try {
    assert.ok(performance.now() - started < 2000, 'written in well under 2 s');
    assert.equal(readFileSync(file.path).length, file.bytes);
  } finally {
    await file.dispose();
  }
});
