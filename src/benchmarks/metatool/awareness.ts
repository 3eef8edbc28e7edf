import { buildSamples, InputError, rngFor, user, type Sample } from '../../core/index.js';
import { openMetaTool, type AwarenessItem } from '../../datasets/metatool/index.js';
import type { Task, TaskContext } from '../task.js';
import { METATOOL_BASELINES, METATOOL_SETTINGS, METATOOL_TASK_VERSION, mergeChecksums, promptVersionFor } from './common.js';
import type { AwarenessMeta } from './metadata.js';
import type { YesNoQuestion } from './baselines/questions.js';
import { AWARENESS_CONFUSION } from './charts.js';
import { awarenessFold, awarenessMetrics } from './metrics.js';
import { applyLimit, resolveOptions } from './options.js';
import { METATOOL_ITEM_OPTIONS } from './option-specs.js';
import { renderAwarenessFewShot, renderThoughtPrompt } from './prompts.js';
import { chooseAwarenessExamples } from './sampling.js';
import { scoreAwareness, isManualAnalysis, METATOOL_PARSERS } from './scoring.js';
import { AWARENESS_METRICS } from './metric-declarations.js';

const NAME = 'metatool/awareness';

/** `awareness/<index in Task1.json>`. */
const sampleId = (item: AwarenessItem): string => `awareness/${item.index}`;

function awarenessSample(item: AwarenessItem, prompt: string, meta: Omit<AwarenessMeta, 'task' | 'query' | 'needsTool' | 'tool'>): Sample {
  const metadata: AwarenessMeta = {
    task: 'awareness',
    query: item.query,
    needsTool: item.needsTool,
    ...(item.tool === undefined ? {} : { tool: item.tool }),
    ...meta,
  };
  return { id: sampleId(item), input: [user(prompt)], target: item.needsTool, metadata, hints: { kind: 'yes-no', query: item.query } satisfies YesNoQuestion };
}

/**
 * MetaTool Task 1, tool-usage awareness: does the query need an external tool? The 1,040 shipped
 * items (520 positives from ToolE, 520 negatives). Zero-shot: the thought prompt; five-shot: five
 * seeded examples from the other items; `prompts: 'upstream'`: the shipped five-shot prompts.
 */
export const awarenessTask: Task = {
  name: NAME,
  version: METATOOL_TASK_VERSION,
  description: 'MetaTool tool-usage awareness: answer yes/no whether a query needs an external tool (accuracy, precision, recall, F1).',
  defaultSettings: METATOOL_SETTINGS,
  baselines: METATOOL_BASELINES,
  answerParsers: METATOOL_PARSERS,
  isManualAnalysis,
  dataset: 'metatool',
  ownOptions: METATOOL_ITEM_OPTIONS,
  async prepare(ctx: TaskContext) {
    const options = resolveOptions(NAME, ctx.options);
    if (options.prompts === 'upstream' && options.shotsGiven && options.shots === 0) {
      throw new InputError(`${NAME}: the upstream Task1 prompts are five-shot; drop --shots 0 or use --prompts assay`);
    }
    const items = await openMetaTool(ctx.dataDir).awarenessItems();
    // The first `limit` items; each sample is built from its item when the engine reads it, as in
    // `similar.ts` (its examples are seeded by its id, so a sample built twice is the same).
    const chosen = applyLimit(items.value, options.limit);
    const sampleOf = (index: number): Sample => {
      const item = chosen[index] as AwarenessItem;
      if (options.prompts === 'upstream') return awarenessSample(item, item.thoughtPrompt, { source: 'upstream', shots: 5 });
      if (options.shots === 0) return awarenessSample(item, renderThoughtPrompt(item.query), { source: 'assay', shots: 0 });
      const examples = chooseAwarenessExamples(item, items.value, rngFor(ctx.seed, `examples:${sampleId(item)}`));
      return awarenessSample(item, renderAwarenessFewShot(item.query, examples), { source: 'assay', shots: 5, examples });
    };
    const parser = options.parser;
    return {
      samples: buildSamples(chosen.length, sampleOf, { idAt: (index) => sampleId(chosen[index] as AwarenessItem) }),
      datasetChecksums: mergeChecksums(items),
      promptVersion: promptVersionFor(options.prompts),
      score: (sample, output) => scoreAwareness(sample, output, parser),
    };
  },
  charts: [AWARENESS_CONFUSION],
  metrics: awarenessMetrics,
  metricsFold: awarenessFold,
  metricDeclarations: AWARENESS_METRICS,
};
