import { InputError } from '../../core/index.js';
import { compareNames, loadUserTools, nearestNeighbours, type Loaded, type ToolCatalogue } from '../../datasets/metatool/index.js';
import { Bm25Index } from '../../text/bm25.js';
import type { TaskContext, TextEmbedder } from '../task.js';
import { CANDIDATES_SHOWN } from './sampling.js';

/** The default way to rank a user's tools when no embedding model is given. */
export const LEXICAL_EMBEDDER = 'lexical';

/**
 * For each tool, the `k` most similar tools by BM25 between descriptions, the tool itself first:
 * each tool's description is the query against every other description. BM25 is not symmetric
 * (a's nearest may not list b when b's lists a), as upstream's nearest lists are directional too.
 * Ties (e.g. no shared term: score 0) by name.
 */
export function lexicalNeighbours(catalogue: ToolCatalogue, k: number): ReadonlyMap<string, readonly string[]> {
  const { tools, descriptions } = catalogue;
  const index = new Bm25Index(tools.map((t) => descriptions.get(t) ?? ''));
  const out = new Map<string, readonly string[]>();
  tools.forEach((tool, i) => {
    const scores = index.scores(descriptions.get(tool) ?? '');
    const others = tools
      .map((name, j) => ({ name, j, score: scores[j] as number }))
      .filter(({ j }) => j !== i)
      .sort((a, b) => b.score - a.score || compareNames(a.name, b.name));
    out.set(tool, [tool, ...others.slice(0, k - 1).map((o) => o.name)]);
  });
  return out;
}

/**
 * For each tool, the `k` nearest tools by cosine of the embedder's description vectors, the tool
 * itself first (ties by name, as for the shipped ada-002 neighbours).
 * @throws InputError when the embedder returns the wrong number of vectors, mixed widths, or a
 * zero or non-finite vector (its cosine is undefined: the ranking would be arbitrary).
 */
export async function embeddingNeighbours(catalogue: ToolCatalogue, embedder: Pick<TextEmbedder, 'id' | 'embed'>, k: number): Promise<ReadonlyMap<string, readonly string[]>> {
  const { tools, descriptions } = catalogue;
  const vectors = await embedder.embed(tools.map((t) => descriptions.get(t) ?? ''));
  if (vectors.length !== tools.length) throw new InputError(`embedder ${embedder.id} returned ${vectors.length} vectors for ${tools.length} descriptions`);
  const width = vectors[0]?.length ?? 0;
  vectors.forEach((v, i) => {
    const usable = v.length === width && v.length > 0 && v.every(Number.isFinite) && v.some((x) => x !== 0);
    if (!usable) throw new InputError(`embedder ${embedder.id}: the vector of tool "${tools[i] as string}" is empty, zero, non-finite or of another width; its cosine similarity is undefined`);
  });
  return nearestNeighbours(tools, new Map(tools.map((t, i) => [t, vectors[i] as number[]])), k);
}

/** A user's tool set ready for the similar task: its catalogue, nearest lists and recorded identity. */
export interface UserToolSet {
  readonly catalogue: Loaded<ToolCatalogue>;
  readonly neighbours: ReadonlyMap<string, readonly string[]>;
  /** `lexical` or the embedding model's id, as recorded in each sample. */
  readonly embedder: string;
}

/**
 * Reads the tools file (at least 10 tools: a candidate list shows 10) and ranks each tool's
 * nearest tools with the given embedder (`lexical` when none). The embedder is closed before
 * returning: samples hold names only.
 */
export async function loadUserToolSet(file: string, embedderId: string | undefined, createEmbedder: TaskContext['createEmbedder']): Promise<UserToolSet> {
  const catalogue = await loadUserTools(file, CANDIDATES_SHOWN);
  const id = embedderId ?? LEXICAL_EMBEDDER;
  if (id === LEXICAL_EMBEDDER) return { catalogue, neighbours: lexicalNeighbours(catalogue.value, CANDIDATES_SHOWN), embedder: id };
  if (!createEmbedder) throw new InputError(`embedder ${id}: this caller cannot build embedding models (run the task through startRun, or pass createEmbedder)`);
  const embedder = await createEmbedder(id);
  try {
    return { catalogue, neighbours: await embeddingNeighbours(catalogue.value, embedder, CANDIDATES_SHOWN), embedder: embedder.id };
  } finally {
    await embedder.close();
  }
}
