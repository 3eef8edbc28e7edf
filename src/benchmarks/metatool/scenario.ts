import { rngFor, shuffled, type Sample } from '../../core/index.js';
import { openMetaTool } from '../../datasets/metatool/index.js';
import { isManualAnalysis, METATOOL_PARSERS } from './scoring.js';
import type { Task, TaskContext } from '../task.js';
import {
  METATOOL_BASELINES, METATOOL_SETTINGS,
  METATOOL_TASK_VERSION,
  mergeChecksums,
  preparedSelectionTask,
  selectionExamplesFor,
  shownTools,
  upstreamNotShipped,
} from './common.js';
import { CSR_BY_POSITION, CSR_BY_SCENARIO } from './charts.js';
import { singleSelectionMetrics } from './metrics.js';
import { applyLimit, resolveOptions } from './options.js';
import { METATOOL_QUERY_OPTIONS } from './option-specs.js';
import { chooseQueries } from './sampling.js';
import { selectionPromptParts } from './prompts.js';
import { selectionSample } from './selection-sample.js';
import { SCENARIO_METRICS } from './metric-declarations.js';

const NAME = 'metatool/scenario';

/**
 * MetaTool Task 2 subtask 2, selection in a scenario: for each scenario list (`scenario/*.json`,
 * sorted by file name) and each of its tools, `perTool` queries of that tool; the candidates are
 * the scenario's list in a seeded random order. CSR overall, per scenario and per gold position.
 */
export const scenarioTask: Task = {
  name: NAME,
  // `--sample` keeps each scenario's share of the queries.
  categoryKey: 'scenario',
  version: METATOOL_TASK_VERSION,
  description: 'MetaTool scenario selection: choose the right tool from a scenario\'s tool list (CSR per scenario and per gold position).',
  defaultSettings: METATOOL_SETTINGS,
  baselines: METATOOL_BASELINES,
  answerParsers: METATOOL_PARSERS,
  isManualAnalysis,
  dataset: 'metatool',
  ownOptions: METATOOL_QUERY_OPTIONS,
  async prepare(ctx: TaskContext) {
    const options = resolveOptions(NAME, ctx.options);
    if (options.prompts === 'upstream') throw upstreamNotShipped(NAME);
    const dataset = openMetaTool(ctx.dataDir);
    const catalogue = await dataset.catalogue();
    const scenarios = await dataset.scenarios();
    const samples: Sample[] = [];
    for (const scenario of scenarios.value) {
      for (const gold of scenario.tools) {
        chooseQueries(catalogue.value.pool, gold, options.perTool, ctx.seed).forEach((query, k) => {
          const id = `scenario/${scenario.name}/${gold}/${k}`;
          const names = shuffled(scenario.tools, rngFor(ctx.seed, `candidates:${id}`));
          const shown = shownTools(names, catalogue.value);
          const examples = selectionExamplesFor(options, ctx.seed, { id, query, shown: names, gold: [gold] }, catalogue.value);
          samples.push(
            selectionSample({
              id,
              prompt: () => selectionPromptParts('single', query, shown, examples),
              shown,
              target: gold,
              allowNone: true,
              meta: {
                task: 'scenario',
                source: 'assay',
                query,
                gold: [gold],
                maxSelections: 1,
                shots: options.shots,
                scenario: scenario.name,
                ...(examples ? { examples } : {}),
              },
            }),
          );
        });
      }
    }
    return preparedSelectionTask({
      samples: applyLimit(samples, options.limit),
      datasetChecksums: mergeChecksums(catalogue, scenarios),
      prompts: options.prompts,
      parser: options.parser,
      catalogue: catalogue.value,
    });
  },
  charts: [CSR_BY_SCENARIO, CSR_BY_POSITION],
  metrics: (rows) => singleSelectionMetrics(rows, { byPosition: true, byScenario: true, topK: false }),
  metricDeclarations: SCENARIO_METRICS,
};
