import { compareNames } from './toole.js';

/** How many neighbours upstream keeps per tool (the tool itself included, first). */
export const NEIGHBOURS_KEPT = 20;

/**
 * For each tool, the `k` tools nearest to it by cosine similarity of their embeddings, among
 * `tools` only: the tool itself first, then the others by decreasing cosine, ties broken by name.
 * This is upstream's "top-k similar tools" list (their Milvus search returns the query tool first).
 * @param embeddings - one vector per tool; every tool of `tools` must have one of the same length.
 */
export function nearestNeighbours(
  tools: readonly string[],
  embeddings: ReadonlyMap<string, readonly number[]>,
  k: number = NEIGHBOURS_KEPT,
): ReadonlyMap<string, readonly string[]> {
  // Float64Array and a symmetric matrix computed once: 199² dot products of 1,536-d vectors.
  const vectors = tools.map((tool) => {
    const vector = embeddings.get(tool);
    if (!vector) throw new Error(`no embedding for tool "${tool}"`);
    return Float64Array.from(vector);
  });
  const norms = vectors.map((v) => Math.sqrt(dot(v, v)));
  const n = tools.length;
  const cosine = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const c = dot(vectors[i] as Float64Array, vectors[j] as Float64Array) / ((norms[i] as number) * (norms[j] as number));
      cosine[i * n + j] = c;
      cosine[j * n + i] = c;
    }
  }
  const out = new Map<string, readonly string[]>();
  tools.forEach((tool, i) => {
    const others = tools
      .map((name, j) => ({ name, j, cosine: cosine[i * n + j] as number }))
      .filter(({ j }) => j !== i)
      .sort((a, b) => b.cosine - a.cosine || compareNames(a.name, b.name));
    // The tool itself is placed first explicitly: its cosine is 1 only up to rounding.
    out.set(tool, [tool, ...others.slice(0, k - 1).map((o) => o.name)]);
  });
  return out;
}

function dot(a: Float64Array, b: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}
