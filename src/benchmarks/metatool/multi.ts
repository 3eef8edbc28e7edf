import { buildSamples, InputError, rngFor, shuffled, type Sample } from '../../core/index.js';
import { METATOOL_FILES, openMetaTool, type MetaToolDataset } from '../../datasets/metatool/index.js';
import type { PreparedTask, Task, TaskContext } from '../task.js';
import { isManualAnalysis, METATOOL_PARSERS } from './scoring.js';
import { METATOOL_BASELINES, METATOOL_SETTINGS, METATOOL_TASK_VERSION, mergeChecksums, preparedSelectionTask, shownTools } from './common.js';
import type { MultiCondition } from './metadata.js';
import { multiSelectionFold, multiSelectionMetrics } from './metrics.js';
import { applyLimit, resolveOptions, type MetaToolOptions } from './options.js';
import { METATOOL_ITEM_OPTIONS } from './option-specs.js';
import { selectionPromptParts } from './prompts.js';
import { selectionSample } from './selection-sample.js';
import { CANDIDATES_SHOWN, randomToolsExcluding } from './sampling.js';
import { parseShownTools } from './shipped-tool-list.js';
import { MULTI_METRICS } from './metric-declarations.js';

const NAME = 'metatool/multi';

const CONDITIONS: readonly MultiCondition[] = ['at-most-two', 'must-two'];

const multiId = (index: number, condition: MultiCondition): string => `multi/${index}/${condition}`;

/**
 * assay's samples: each two-tool query in both conditions, over one candidate list — both golds and
 * 8 random tools from outside both golds' top-20, in a seeded random order. The two conditions of a
 * query share that list and order, so the prompt wording is the only difference between them.
 */
async function assaySamples(dataset: MetaToolDataset, options: MetaToolOptions, seed: number): Promise<PreparedTask> {
  const catalogue = await dataset.catalogue();
  const neighbours = await dataset.neighbours();
  const queries = await dataset.multiToolQueries();
  // Each query's two samples are built from it when the engine reads them, as in `similar.ts`: its
  // candidates are seeded by its index, so both conditions (and a sample built twice) get the same.
  const chosen = queries.value.slice(0, Math.ceil((options.limit ?? Number.POSITIVE_INFINITY) / CONDITIONS.length));
  const length = Math.min(chosen.length * CONDITIONS.length, options.limit ?? Number.POSITIVE_INFINITY);
  const sampleOf = (position: number): Sample => {
    const { index, query, tools } = chosen[Math.floor(position / CONDITIONS.length)] as (typeof chosen)[number];
    const condition = CONDITIONS[position % CONDITIONS.length] as MultiCondition;
    const gold = [...tools];
    const excluded = new Set(gold.flatMap((g) => neighbours.value.get(g) ?? [g]));
    const rng = rngFor(seed, `candidates:multi/${index}`);
    const others = randomToolsExcluding(catalogue.value.tools, excluded, CANDIDATES_SHOWN - gold.length, rng);
    const shown = shownTools(shuffled([...gold, ...others], rng), catalogue.value);
    return selectionSample({
      id: multiId(index, condition),
      prompt: () => selectionPromptParts(condition, query, shown, undefined),
      shown,
      target: gold,
      allowNone: condition === 'at-most-two',
      meta: { task: 'multi', source: 'assay', query, gold, maxSelections: 2, shots: 0, condition },
    });
  };
  const idAt = (position: number): string => multiId((chosen[Math.floor(position / CONDITIONS.length)] as (typeof chosen)[number]).index, CONDITIONS[position % CONDITIONS.length] as MultiCondition);
  return preparedSelectionTask({
    parser: options.parser,
    samples: buildSamples(length, sampleOf, { idAt }),
    datasetChecksums: mergeChecksums(catalogue, neighbours, queries),
    prompts: 'assay',
    catalogue: catalogue.value,
  });
}

/**
 * The shipped `Task2-Subtask4.json` prompts ("must choose two"), byte for byte. Their golds sit at
 * positions 7 and 8 of every list — replayed as shipped, for comparison with the paper.
 */
async function upstreamSamples(dataset: MetaToolDataset, options: MetaToolOptions): Promise<PreparedTask> {
  const catalogue = await dataset.catalogue();
  const shipped = await dataset.multiToolPrompts();
  const known = new Set(catalogue.value.tools);
  const samples = shipped.value.map((item) => {
    const where = `${dataset.filePath(METATOOL_FILES.subtask4)} item ${item.index}`;
    const shown = parseShownTools(item.actionPrompt, where, known);
    const missing = item.tools.filter((g) => !shown.some((t) => t.name === g));
    if (missing.length > 0) throw new InputError(`${where}: gold tools ${JSON.stringify(missing)} are not in the prompt's tool list; expected both golds to be shown`);
    return selectionSample({
      id: `multi/${item.index}/must-two`,
      prompt: item.actionPrompt,
      shown,
      target: item.tools,
      allowNone: false,
      meta: { task: 'multi', source: 'upstream', query: item.query, gold: item.tools, maxSelections: 2, shots: 0, condition: 'must-two' },
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
 * MetaTool Task 2 subtask 4, multi-tool selection: queries that need two tools, asked in two
 * conditions — "choose at most two" (CSR 2/2, 1/1, 1/2) and "must choose two" (CSR both right).
 * Zero-shot only, as in the paper.
 */
export const multiTask: Task = {
  name: NAME,
  version: METATOOL_TASK_VERSION,
  description: 'MetaTool multi-tool selection: choose the two right tools, "at most two" and "must choose two" (CSR 2/2, 1/1, 1/2, must-two).',
  defaultSettings: METATOOL_SETTINGS,
  baselines: METATOOL_BASELINES,
  answerParsers: METATOOL_PARSERS,
  isManualAnalysis,
  dataset: 'metatool',
  ownOptions: METATOOL_ITEM_OPTIONS,
  async prepare(ctx: TaskContext) {
    const options = resolveOptions(NAME, ctx.options);
    if (options.shots === 5) throw new InputError(`${NAME}: five-shot is not available for multi-tool selection (the paper uses few-shot for single-tool tasks only); use --shots 0`);
    const dataset = openMetaTool(ctx.dataDir);
    return options.prompts === 'upstream' ? upstreamSamples(dataset, options) : assaySamples(dataset, options, ctx.seed);
  },
  metrics: multiSelectionMetrics,
  metricsFold: multiSelectionFold,
  metricDeclarations: MULTI_METRICS,
};
