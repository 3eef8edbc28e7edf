import { InputError, mapPacked, rngFor, withFields, type GenerateSettings, type Sample, type SampleList } from '../../core/index.js';
import type { Loaded, ToolCatalogue } from '../../datasets/metatool/index.js';
import type { AnswerParserName, Metrics, PreparedTask, ScoredSample, TaskBaselines } from '../task.js';
import { METATOOL_ANSWERERS } from './baselines/answerers.js';
import type { MetaToolOptions } from './options.js';
import type { SelectionMeta } from './metadata.js';
import { PROMPT_VERSION, selectionPromptParts, type SelectionExample, type ShownTool } from './prompts.js';
import { selectionSample, type SelectionSampleSpec } from './selection-sample.js';
import { chooseSelectionExamples } from './sampling.js';
import { scoreSelection } from './scoring.js';

/**
 * Bump when samples, prompts or scoring of a MetaTool task change the numbers.
 * 2: `--parser paper` is the authors' published answer matching, for selection too; the strict
 * selection reading no longer takes prose words (`search`, `local`) for tool names.
 */
export const METATOOL_TASK_VERSION = '2';

/** The paper samples at temperature 0. */
export const METATOOL_SETTINGS: GenerateSettings = { temperature: 0 };

/** What the `baseline:` reference models answer in MetaTool's samples, and how (`Task.baselines`). */
export const METATOOL_BASELINES: TaskBaselines = { questions: "MetaTool's questions", answerers: METATOOL_ANSWERERS };

/** `metatool-prompts/1`, or `metatool-prompts/1:upstream` when the shipped prompts are replayed. */
export function promptVersionFor(prompts: 'assay' | 'upstream'): string {
  return prompts === 'upstream' ? `${PROMPT_VERSION}:upstream` : PROMPT_VERSION;
}

/** The checksums of every part a task read, in one record. */
export function mergeChecksums(...parts: readonly Loaded<unknown>[]): Record<string, string> {
  return Object.assign({}, ...parts.map((p) => p.checksums)) as Record<string, string>;
}

/** For similar and scenario: their upstream prompt files are not part of the data set. */
export function upstreamNotShipped(taskName: string): InputError {
  return new InputError(
    `${taskName}: the upstream files Task2-Subtask1.json/Task2-Subtask2.json are not shipped in the dataset folder; use --prompts assay`,
  );
}

/**
 * Names with their prompt descriptions, in the given order. The entries are shared, one frozen
 * object per tool and catalogue, because every sample of a run holds its shown list.
 */
export function shownTools(names: readonly string[], catalogue: ToolCatalogue): ShownTool[] {
  let entries = shownEntries.get(catalogue);
  if (!entries) shownEntries.set(catalogue, (entries = new Map()));
  return mapPacked(names, (name) => {
    let entry = entries.get(name);
    if (!entry) {
      const description = catalogue.descriptions.get(name);
      if (description === undefined) throw new Error(`no description for tool "${name}"`);
      entries.set(name, (entry = Object.freeze({ name, description })));
    }
    return entry;
  });
}

const shownEntries = new WeakMap<ToolCatalogue, Map<string, ShownTool>>();

/** Five seeded selection examples for a sample when the run is five-shot, else undefined. */
export function selectionExamplesFor(
  options: MetaToolOptions,
  seed: number,
  sample: { readonly id: string; readonly query: string; readonly shown: readonly string[]; readonly gold: readonly string[] },
  catalogue: ToolCatalogue,
): SelectionExample[] | undefined {
  if (options.shots !== 5) return undefined;
  return chooseSelectionExamples(withFields(sample, { allTools: catalogue.tools, pool: catalogue.pool, rng: rngFor(seed, `examples:${sample.id}`) }));
}

/** One planned single-tool question: its sample id, the right tool, the query and the candidates' order. */
export interface PlannedSingleQuery {
  readonly id: string;
  readonly gold: string;
  readonly query: string;
  readonly names: readonly string[];
}

/**
 * A single-tool selection sample in assay's prompts (similar, scenario): the planned query with its
 * candidates in the planned order, five seeded examples when the run is five-shot, "None" allowed.
 * `own`: the task's own metadata fields, written after the shared ones and before the examples
 * (the stored metadata keeps that key order).
 */
export function singleSelectionSample(
  planned: PlannedSingleQuery,
  task: 'similar' | 'scenario',
  own: Pick<SelectionMeta, 'scenario' | 'nearest' | 'embedder'>,
  context: { readonly options: MetaToolOptions; readonly seed: number; readonly catalogue: ToolCatalogue },
): Sample {
  const { id, gold, query, names } = planned;
  const { options, seed, catalogue } = context;
  const shown = shownTools(names, catalogue);
  const examples = selectionExamplesFor(options, seed, { id, query, shown: names, gold: [gold] }, catalogue);
  return selectionSample({
    id,
    prompt: () => selectionPromptParts('single', query, shown, examples),
    shown,
    target: gold,
    allowNone: true,
    meta: singleSelectionMeta(task, query, gold, options.shots, own, examples),
  });
}

/**
 * `{ task, source: 'assay', query, gold: [gold], maxSelections: 1, shots, ...own, examples? }`,
 * written key by key in that order: object spreads mixed with more properties are slow on Node
 * 20's V8 (see `selection-sample.ts`); in the 10,000-sample run's profile this sample's building
 * went from ~280 to ~170 ms of the main thread.
 */
function singleSelectionMeta(
  task: 'similar' | 'scenario',
  query: string,
  gold: string,
  shots: MetaToolOptions['shots'],
  own: Pick<SelectionMeta, 'scenario' | 'nearest' | 'embedder'>,
  examples: SelectionExample[] | undefined,
): SelectionSampleSpec['meta'] {
  const meta: Record<string, unknown> = { task, source: 'assay', query, gold: [gold], maxSelections: 1, shots };
  // A task gives either `scenario` or `nearest` (with `embedder` after it): the order it gave them in.
  if (own.scenario !== undefined) meta['scenario'] = own.scenario;
  if (own.nearest !== undefined) meta['nearest'] = own.nearest;
  if (own.embedder !== undefined) meta['embedder'] = own.embedder;
  if (examples) meta['examples'] = examples;
  return meta as SelectionSampleSpec['meta'];
}

/** A prepared selection task: selection scoring against the catalogue. */
export function preparedSelectionTask(args: {
  readonly samples: SampleList;
  readonly datasetChecksums: Readonly<Record<string, string>>;
  readonly prompts: 'assay' | 'upstream';
  readonly catalogue: ToolCatalogue;
  readonly parser: AnswerParserName;
}): PreparedTask {
  const { samples, datasetChecksums, prompts, catalogue, parser } = args;
  return {
    samples,
    datasetChecksums,
    promptVersion: promptVersionFor(prompts),
    score: (sample, output) => scoreSelection(sample, output, catalogue.tools, parser),
  };
}
