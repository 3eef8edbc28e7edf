import { buildSamples, InputError, rngFor, type Sample } from '../../core/index.js';
import { METATOOL_FILES, openMetaTool, type MetaToolDataset, type ToolCatalogue } from '../../datasets/metatool/index.js';
import type { PreparedTask, ScoredSample, Task, TaskContext } from '../task.js';
import { isManualAnalysis, METATOOL_PARSERS } from './scoring.js';
import { METATOOL_BASELINES, METATOOL_SETTINGS, METATOOL_TASK_VERSION, mergeChecksums, preparedSelectionTask, selectionExamplesFor, shownTools } from './common.js';
import { singleSelectionFold, singleSelectionMetrics } from './metrics.js';
import { applyLimit, resolveOptions, type MetaToolOptions } from './options.js';
import { METATOOL_QUERY_OPTIONS } from './option-specs.js';
import { CANDIDATES_SHOWN, chooseQueries, randomToolsExcluding } from './sampling.js';
import { selectionPromptParts } from './prompts.js';
import { selectionSample } from './selection-sample.js';
import { parseShownTools } from './shipped-tool-list.js';
import { RELIABILITY_METRICS } from './metric-declarations.js';

const NAME = 'metatool/reliability';

/** No gold is shown, so there is no gold position to break CSR down by. */
const BREAKDOWNS = { byPosition: false, byScenario: false, topK: false };
const metrics = (rows: Iterable<ScoredSample>) => singleSelectionMetrics(rows, BREAKDOWNS);

/** assay's samples: per tool, `perTool` queries; 10 random tools from outside the tool's top-20. */
async function assaySamples(dataset: MetaToolDataset, options: MetaToolOptions, seed: number): Promise<PreparedTask> {
  const catalogue = await dataset.catalogue();
  const neighbours = await dataset.neighbours();
  // Which query of which tool each sample asks, with its candidates, up to the limit; the samples
  // are built from it when the engine reads them, as in `similar.ts` (every choice is seeded by the
  // sample's id, so a sample built twice is the same).
  const plan = queryPlan(catalogue.value, neighbours.value, options.perTool, seed, options.limit);
  const sampleOf = (index: number): Sample => {
    const { id, queryTool, query, names } = plan[index] as PlannedQuery;
    const shown = shownTools(names, catalogue.value);
    const examples = selectionExamplesFor(options, seed, { id, query, shown: names, gold: [queryTool] }, catalogue.value);
    return selectionSample({
      id,
      prompt: () => selectionPromptParts('single', query, shown, examples),
      shown,
      target: null,
      allowNone: true,
      meta: { task: 'reliability', source: 'assay', query, gold: [], queryTool, maxSelections: 1, shots: options.shots, ...(examples ? { examples } : {}) },
    });
  };
  return preparedSelectionTask({
    parser: options.parser,
    samples: buildSamples(plan.length, sampleOf, { idAt: (index) => (plan[index] as PlannedQuery).id }),
    datasetChecksums: mergeChecksums(catalogue, neighbours),
    prompts: 'assay',
    catalogue: catalogue.value,
  });
}

/** One sample's seeded choices: the query (the `k`-th chosen for `queryTool`, in its id) and the tools shown. */
interface PlannedQuery {
  readonly id: string;
  readonly queryTool: string;
  readonly query: string;
  readonly names: readonly string[];
}

/** Every tool's `perTool` queries in the catalogue's order, each with 10 tools from outside its top-20; the first `limit` of them (all without one). */
function queryPlan(catalogue: ToolCatalogue, neighbours: ReadonlyMap<string, readonly string[]>, perTool: number, seed: number, limit: number | undefined): PlannedQuery[] {
  const plan: PlannedQuery[] = [];
  const wanted = limit ?? Number.POSITIVE_INFINITY;
  for (const queryTool of catalogue.tools) {
    // The top-20 list includes the tool itself, so the right tool is never shown (as upstream).
    const excluded = new Set(neighbours.get(queryTool) ?? [queryTool]);
    for (const [k, query] of chooseQueries(catalogue.pool, queryTool, perTool, seed).entries()) {
      if (plan.length >= wanted) return plan;
      const id = `reliability/${queryTool}/${k}`;
      plan.push({ id, queryTool, query, names: randomToolsExcluding(catalogue.tools, excluded, CANDIDATES_SHOWN, rngFor(seed, `candidates:${id}`)) });
    }
  }
  return plan;
}

/** The shipped `Task2-Subtask3.json` prompts, byte for byte; candidates recovered from their tool lines. */
async function upstreamSamples(dataset: MetaToolDataset, options: MetaToolOptions): Promise<PreparedTask> {
  if (options.shotsGiven && options.shots === 0) {
    throw new InputError(`${NAME}: the upstream Task2-Subtask3 prompts are five-shot; drop --shots 0 or use --prompts assay`);
  }
  const catalogue = await dataset.catalogue();
  const shipped = await dataset.reliabilityPrompts();
  const known = new Set(catalogue.value.tools);
  // Ids number each tool's items in file order, like assay's `reliability/<tool>/<k>`.
  const seen = new Map<string, number>();
  const samples = shipped.value.map((item) => {
    const where = `${dataset.filePath(METATOOL_FILES.subtask3)} item ${item.index}`;
    const queryTool = item.tools[0] as string;
    if (!known.has(queryTool)) throw new InputError(`${where}: tool "${queryTool}" is not in all_clean_data.csv; expected a ToolE tool`);
    const shown = parseShownTools(item.actionPrompt, where, known);
    const k = seen.get(queryTool) ?? 0;
    seen.set(queryTool, k + 1);
    return selectionSample({
      id: `reliability/${queryTool}/${k}`,
      prompt: item.actionPrompt,
      shown,
      target: null,
      allowNone: true,
      meta: { task: 'reliability', source: 'upstream', query: item.query, gold: [], queryTool, maxSelections: 1, shots: 5 },
    });
  });
  return preparedSelectionTask({
    parser: options.parser,
    samples: applyLimit(samples, options.limit),
    datasetChecksums: mergeChecksums(catalogue, shipped),
    prompts: 'upstream',
    catalogue: catalogue.value,
  });
}

/**
 * MetaTool Task 2 subtask 3, reliability: none of the 10 shown tools fits the query (they are drawn
 * at random from outside the right tool's 20 nearest), so the right answer is "None". CSR, and the
 * rate of answers naming a tool that was not shown.
 */
export const reliabilityTask: Task = {
  name: NAME,
  version: METATOOL_TASK_VERSION,
  description: 'MetaTool reliability: no shown tool fits the query, the right answer is None (CSR, hallucination rate).',
  defaultSettings: METATOOL_SETTINGS,
  baselines: METATOOL_BASELINES,
  answerParsers: METATOOL_PARSERS,
  isManualAnalysis,
  dataset: 'metatool',
  ownOptions: METATOOL_QUERY_OPTIONS,
  async prepare(ctx: TaskContext) {
    const options = resolveOptions(NAME, ctx.options);
    const dataset = openMetaTool(ctx.dataDir);
    return options.prompts === 'upstream' ? upstreamSamples(dataset, options) : assaySamples(dataset, options, ctx.seed);
  },
  metrics,
  metricsFold: () => singleSelectionFold(BREAKDOWNS),
  metricDeclarations: RELIABILITY_METRICS,
};
