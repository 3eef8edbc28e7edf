import { buildSamples, rngFor, shuffled, type Sample } from '../../core/index.js';
import { openMetaTool, type Loaded, type ToolCatalogue } from '../../datasets/metatool/index.js';
import { isManualAnalysis, METATOOL_PARSERS } from './scoring.js';
import type { Task, TaskContext } from '../task.js';
import {
  METATOOL_BASELINES, METATOOL_SETTINGS,
  METATOOL_TASK_VERSION,
  mergeChecksums,
  preparedSelectionTask,
  singleSelectionSample,
  type PlannedSingleQuery,
  upstreamNotShipped,
} from './common.js';
import { CSR_BY_POSITION, TOP_K } from './charts.js';
import { singleSelectionFold, singleSelectionMetrics } from './metrics.js';
import { resolveOptions } from './options.js';
import { METATOOL_SIMILAR_OPTIONS } from './option-specs.js';
import { CANDIDATES_SHOWN, chooseQueries } from './sampling.js';
import { SIMILAR_METRICS } from './metric-declarations.js';

const SIMILAR_BREAKDOWNS = { byPosition: true, byScenario: false, topK: true };

const NAME = 'metatool/similar';

/** How many of the gold's nearest other tools the Top@k analysis looks at (k ≤ 5). */
const TOP_K_MAX = 5;

/**
 * MetaTool Task 2 subtask 1, selection among similar tools: the gold tool and its 9 nearest tools
 * by embedding cosine, in a seeded random order (upstream put the gold first in every prompt).
 * `perTool` queries per tool; correct iff exactly the gold is chosen. With `tools` (a user's own
 * tool set), the same samples are built from the user's tools, queries and nearest lists (by the
 * `embedder`, BM25 by default); the data dir is not read.
 */
export const similarTask: Task = {
  name: NAME,
  version: METATOOL_TASK_VERSION,
  description: 'MetaTool similar-tool selection: choose the right tool among it and its 9 most similar tools (CSR, CSR by gold position, Top@k).',
  defaultSettings: METATOOL_SETTINGS,
  baselines: METATOOL_BASELINES,
  answerParsers: METATOOL_PARSERS,
  isManualAnalysis,
  dataset: 'metatool',
  ownOptions: METATOOL_SIMILAR_OPTIONS,
  async prepare(ctx: TaskContext) {
    const options = resolveOptions(NAME, ctx.options);
    if (options.prompts === 'upstream') throw upstreamNotShipped(NAME);
    const source = options.tools === undefined ? await builtInToolSet(ctx.dataDir) : await userSource(options.tools, options.embedder, ctx);
    const { catalogue, neighbours } = source;
    // Which query of which tool each sample asks, in order and only up to the limit. The samples
    // themselves are built from it each time the engine reads them (`buildSamples`, none kept):
    // 10,000 built samples held for the whole run were ~18 MB of heap, and kept even for a few
    // hundred samples they were promoted garbage (docs/benchmarks.md, issue 29). Every choice in
    // a sample is seeded by its id, so a sample built twice is the same.
    const plan = queryPlan(catalogue.value, neighbours, options.perTool, ctx.seed, options.limit);
    const sampleOf = (index: number): Sample => {
      const planned = plan[index] as PlannedQuery;
      const nearest = neighbours.get(planned.gold) ?? [planned.gold];
      const own = { nearest: nearest.slice(1, 1 + TOP_K_MAX), embedder: source.embedder || undefined };
      return singleSelectionSample(planned, 'similar', own, { options, seed: ctx.seed, catalogue: catalogue.value });
    };
    return preparedSelectionTask({
      samples: buildSamples(plan.length, sampleOf, { idAt: (index) => (plan[index] as PlannedQuery).id }),
      datasetChecksums: source.checksums,
      prompts: options.prompts,
      parser: options.parser,
      catalogue: catalogue.value,
    });
  },
  charts: [CSR_BY_POSITION, TOP_K],
  metrics: (rows) => singleSelectionMetrics(rows, SIMILAR_BREAKDOWNS),
  metricsFold: () => singleSelectionFold(SIMILAR_BREAKDOWNS),
  metricDeclarations: SIMILAR_METRICS,
};

/**
 * One sample's seeded choices: the query (the `k`-th chosen for the tool `gold`, in its id) and
 * the candidates' order. Kept for the run (~150 bytes a sample) because they are most of what
 * building a sample costs (a SHA-256 each), and the engine reads a sample more than once.
 */
type PlannedQuery = PlannedSingleQuery;

/** Every tool's `perTool` queries in the catalogue's order, the first `limit` of them (all without one). */
function queryPlan(catalogue: ToolCatalogue, neighbours: ReadonlyMap<string, readonly string[]>, perTool: number, seed: number, limit: number | undefined): PlannedQuery[] {
  const plan: PlannedQuery[] = [];
  const wanted = limit ?? Number.POSITIVE_INFINITY;
  for (const gold of catalogue.tools) {
    const nearest = neighbours.get(gold) ?? [gold];
    for (const [k, query] of chooseQueries(catalogue.pool, gold, perTool, seed).entries()) {
      if (plan.length >= wanted) return plan;
      const id = `similar/${gold}/${k}`;
      plan.push({ id, gold, query, names: shuffled(nearest.slice(0, CANDIDATES_SHOWN), rngFor(seed, `candidates:${id}`)) });
    }
  }
  return plan;
}

/** What the similar task draws from: tools with descriptions and queries, and each tool's nearest tools. */
interface SimilarSource {
  readonly catalogue: Loaded<ToolCatalogue>;
  readonly neighbours: ReadonlyMap<string, readonly string[]>;
  readonly checksums: Readonly<Record<string, string>>;
  /** A user's tool set: what ranked the nearest tools (recorded in each sample). */
  readonly embedder?: string;
}

/** ToolE's 199 tools and the shipped ada-002 nearest lists. */
async function builtInToolSet(dataDir: string): Promise<SimilarSource> {
  const dataset = openMetaTool(dataDir);
  const catalogue = await dataset.catalogue();
  const neighbours = await dataset.neighbours();
  return { catalogue, neighbours: neighbours.value, checksums: mergeChecksums(catalogue, neighbours) };
}

/** A user's tools file, ranked by the embedder (BM25 when none). */
async function userSource(file: string, embedder: string | undefined, ctx: TaskContext): Promise<SimilarSource> {
  // Loaded by a run on a user's tools only (with BM25 and its text tools), not by every similar run.
  const { loadUserToolSet } = await import('./tool-similarity.js');
  const set = await loadUserToolSet(file, embedder, ctx.createEmbedder);
  return { catalogue: set.catalogue, neighbours: set.neighbours, checksums: set.catalogue.checksums, embedder: set.embedder };
}
