import { InputError } from '../../core/errors.js';
import { NdArray, type PickleValue } from './pickle.js';
import { pythonFloatRepr, pythonJsonString } from './python-json.js';

/**
 * MetaTool's `tool_embedding.pkl` → the two JSON files assay reads (`derived/`). The pickle is a
 * list of `{'tool': str, 'embedding': <1536 floats>}` (upstream reads it that way); the floats
 * may be a Python list, a numpy float32/float64 array, or a list of numpy scalars.
 */

export interface ToolEmbedding {
  readonly tool: string;
  readonly embedding: readonly number[];
}

/** Reads the embedding records out of an unpickled value, keeping their order. */
export function embeddingsFromPickle(value: PickleValue, source: string): ToolEmbedding[] {
  if (!Array.isArray(value)) throw new InputError(`${source}: expected a list of {'tool', 'embedding'} dicts, got ${kindOf(value)}`, { file: source });
  return value.map((entry, index) => {
    const where = `${source}: entry ${index}`;
    if (!(entry instanceof Map)) throw new InputError(`${where} is ${kindOf(entry)}, expected a dict`, { file: source });
    const tool = entry.get('tool');
    if (typeof tool !== 'string') throw new InputError(`${where} has no string 'tool'`, { file: source });
    return { tool, embedding: vectorOf(entry.get('embedding'), `${where} (${tool})`, source) };
  });
}

function vectorOf(value: PickleValue | undefined, where: string, source: string): number[] {
  if (value instanceof NdArray) {
    const flat = value.shape.length === 1 || (value.shape.length === 2 && value.shape[0] === 1);
    if (!flat) throw new InputError(`${where}: embedding array has shape (${value.shape.join(', ')}), expected one dimension`, { file: source });
    return Array.from(value.data);
  }
  if (Array.isArray(value) && value.every((x): x is number => typeof x === 'number')) return value.slice();
  throw new InputError(`${where}: 'embedding' is ${kindOf(value)}, expected a list or numpy array of floats`, { file: source });
}

export interface EmbeddingExpectations {
  readonly entries: number;
  readonly dimensions: number;
  /** Tools that must all have an embedding. */
  readonly requiredTools: readonly string[];
  /** Allowed distance of every vector's length from 1 (ada-002 vectors are unit length). */
  readonly normTolerance?: number;
}

/**
 * Checks the shape of the records: stands in for a checksum when the source file is not pinned.
 * Throws `InputError` saying what differs.
 */
export function checkEmbeddings(records: readonly ToolEmbedding[], expect: EmbeddingExpectations, source: string): void {
  const fail = (message: string): never => {
    throw new InputError(`${source}: ${message}`, { file: source });
  };
  if (records.length !== expect.entries) fail(`expected ${expect.entries} embeddings, found ${records.length}`);
  const names = new Set<string>();
  const tolerance = expect.normTolerance ?? 1e-3;
  for (const { tool, embedding } of records) {
    if (names.has(tool)) fail(`tool "${tool}" appears twice`);
    names.add(tool);
    if (embedding.length !== expect.dimensions) fail(`embedding of "${tool}" has ${embedding.length} dimensions, expected ${expect.dimensions}`);
    if (!embedding.every(Number.isFinite)) fail(`embedding of "${tool}" holds a non-finite number`);
    const norm = Math.sqrt(dot(embedding, embedding));
    if (Math.abs(norm - 1) > tolerance) fail(`embedding of "${tool}" has length ${norm}, expected 1 ± ${tolerance}`);
  }
  const missing = expect.requiredTools.filter((tool) => !names.has(tool));
  if (missing.length > 0) fail(`no embedding for ${missing.length} tool(s): ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}`);
}

/**
 * For each record whose tool is in `tools` (in record order), its `k` nearest tools among those
 * by cosine similarity: itself first, then by decreasing similarity, ties broken by name.
 */
export function nearestNeighbors(records: readonly ToolEmbedding[], tools: ReadonlySet<string>, k: number): Array<[string, string[]]> {
  const kept = records.filter((r) => tools.has(r.tool));
  const unit = kept.map((r) => {
    const norm = Math.sqrt(dot(r.embedding, r.embedding));
    const out = new Float64Array(r.embedding.length);
    for (let d = 0; d < out.length; d++) out[d] = (r.embedding[d] as number) / norm;
    return out;
  });
  // Cosine is symmetric: compute each pair once.
  const n = kept.length;
  const similarity = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      const s = dotUnit(unit[i] as Float64Array, unit[j] as Float64Array);
      similarity[i * n + j] = s;
      similarity[j * n + i] = s;
    }
  }
  return kept.map((record, i) => {
    const scored = kept.map((other, j) => ({ name: other.tool, self: i === j, score: similarity[i * n + j] as number }));
    scored.sort((a, b) => Number(b.self) - Number(a.self) || b.score - a.score || compareNames(a.name, b.name));
    return [record.tool, scored.slice(0, k).map((s) => s.name)];
  });
}

/** `json.dumps(records, separators=(',', ':'))`, as the shipped `tool_embedding.json` was written. */
export function serializeEmbeddings(records: readonly ToolEmbedding[]): string {
  const parts = records.map((r) => `{"tool":${pythonJsonString(r.tool)},"embedding":[${r.embedding.map(pythonFloatRepr).join(',')}]}`);
  return `[${parts.join(',')}]`;
}

/** `json.dumps(neighbors, indent=0)`, as the shipped `tool_neighbors_top20.json` was written. */
export function serializeNeighbors(neighbors: ReadonlyArray<readonly [string, readonly string[]]>): string {
  if (neighbors.length === 0) return '{}';
  const entries = neighbors.map(([tool, list]) => {
    const items = list.length === 0 ? '[]' : `[\n${list.map(pythonJsonString).join(',\n')}\n]`;
    return `${pythonJsonString(tool)}: ${items}`;
  });
  return `{\n${entries.join(',\n')}\n}`;
}

/** Python compares str by code point; for the BMP that is JavaScript's code-unit order. */
function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function dot(a: readonly number[], b: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

/** Separate from `dot` so each stays monomorphic (this one runs 40,000 times on 1536-d vectors). */
function dotUnit(a: Float64Array, b: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

function kindOf(value: PickleValue | undefined): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'None';
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Map) return 'a dict';
  if (value instanceof NdArray) return 'a numpy array';
  if (value instanceof Uint8Array) return 'bytes';
  return `a ${typeof value}`;
}
