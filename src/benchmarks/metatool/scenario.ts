import { buildSamples, rngFor, shuffled, type Sample } from '../../core/index.js';
import { openMetaTool, type Scenario, type ToolEPool } from '../../datasets/metatool/index.js';
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
import { CSR_BY_POSITION, CSR_BY_SCENARIO } from './charts.js';
import { singleSelectionFold, singleSelectionMetrics } from './metrics.js';
import { resolveOptions } from './options.js';
import { METATOOL_QUERY_OPTIONS } from './option-specs.js';
import { chooseQueries } from './sampling.js';
import { SCENARIO_METRICS } from './metric-declarations.js';

const SCENARIO_BREAKDOWNS = { byPosition: true, byScenario: true, topK: false };

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
    // Which query of which tool in which scenario each sample asks, with its candidates' order, up
    // to the limit; the samples are built from it when the engine reads them, as in `similar.ts`
    // (every choice is seeded by the sample's id, so a sample built twice is the same).
    const plan = queryPlan(scenarios.value, catalogue.value.pool, options.perTool, ctx.seed, options.limit);
    const sampleOf = (index: number): Sample => {
      const planned = plan[index] as PlannedQuery;
      return singleSelectionSample(planned, 'scenario', { scenario: planned.scenario }, { options, seed: ctx.seed, catalogue: catalogue.value });
    };
    return preparedSelectionTask({
      samples: buildSamples(plan.length, sampleOf, { idAt: (index) => (plan[index] as PlannedQuery).id }),
      datasetChecksums: mergeChecksums(catalogue, scenarios),
      prompts: options.prompts,
      parser: options.parser,
      catalogue: catalogue.value,
    });
  },
  charts: [CSR_BY_SCENARIO, CSR_BY_POSITION],
  metrics: (rows) => singleSelectionMetrics(rows, SCENARIO_BREAKDOWNS),
  metricsFold: () => singleSelectionFold(SCENARIO_BREAKDOWNS),
  metricDeclarations: SCENARIO_METRICS,
};

/** One sample's seeded choices: the scenario, the query (the `k`-th chosen for `gold`, in its id) and the candidates' order. */
interface PlannedQuery extends PlannedSingleQuery {
  readonly scenario: string;
}

/** Every scenario's tools' `perTool` queries, scenarios and tools in their order, the first `limit` of them (all without one). */
function queryPlan(scenarios: readonly Scenario[], pool: ToolEPool, perTool: number, seed: number, limit: number | undefined): PlannedQuery[] {
  const plan: PlannedQuery[] = [];
  const wanted = limit ?? Number.POSITIVE_INFINITY;
  for (const scenario of scenarios) {
    for (const gold of scenario.tools) {
      for (const [k, query] of chooseQueries(pool, gold, perTool, seed).entries()) {
        if (plan.length >= wanted) return plan;
        const id = `scenario/${scenario.name}/${gold}/${k}`;
        plan.push({ id, scenario: scenario.name, gold, query, names: shuffled(scenario.tools, rngFor(seed, `candidates:${id}`)) });
      }
    }
  }
  return plan;
}
