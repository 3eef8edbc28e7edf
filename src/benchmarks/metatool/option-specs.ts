import type { TaskOptionSpec } from '../task.js';

/** Queries per tool when `perTool` is not given (upstream's `sample_number=5`). */
export const DEFAULT_PER_TOOL = 5;

/**
 * MetaTool's options, recorded at the top level of a run's options as they were before tasks
 * declared theirs (see `TaskOptionSpec.topLevel`): every task's run records `perTool` and
 * `prompts` (their defaults too) and takes `--shots`, as before; only MetaTool's tasks read them.
 * `--tools` / `--embedder` are metatool/similar's alone.
 */
const PER_TOOL: TaskOptionSpec = {
  key: 'perTool',
  value: '<n>',
  kind: 'positive',
  default: DEFAULT_PER_TOOL,
  description: 'queries drawn per tool (MetaTool similar/scenario/reliability)',
  topLevel: { helpAfter: 'sample', everyTask: true },
};
const SHOTS: TaskOptionSpec = {
  key: 'shots',
  value: '<k>',
  kind: 'count',
  choices: ['0', '5'],
  description: 'in-context examples (default 0; upstream prompts are as shipped)',
  topLevel: { helpAfter: 'perTool', recordedAfter: 'perTool', everyTask: true },
};
const PROMPTS: TaskOptionSpec = {
  key: 'prompts',
  value: '<which>',
  choices: ['assay', 'upstream'],
  default: 'assay',
  description: 'assay: rebuilt prompts, shuffled candidates; upstream: the shipped prompt files byte for byte',
  topLevel: { helpAfter: 'seed', recordedAfter: 'shots', everyTask: true },
};
const OWN_TOOLS_REFUSAL = '--tools and --embedder are for {takers} only (candidate lists on your own tool set); {task} does not take them';
const TOOLS: TaskOptionSpec = {
  key: 'tools',
  value: '<file>',
  kind: 'path',
  replacesDataset: true,
  description: 'metatool/similar on your own tool set: a JSON array of {name, description, queries} (see docs/metatool.md)',
  // Listed after FunctionChat's --bench-version, where it was (the end of the list without it).
  topLevel: { helpAfter: 'benchVersion', recordedAfter: 'rubrics', refusal: OWN_TOOLS_REFUSAL },
};
const EMBEDDER: TaskOptionSpec = {
  key: 'embedder',
  value: '<id>',
  kind: 'model',
  needs: { key: 'tools', message: '--embedder ranks your own tools: give --tools my-tools.json too', default: 'lexical' },
  description: "with --tools: what finds each tool's 9 nearest tools — lexical (BM25 between descriptions, default) or local:<embedding model.gguf>",
  topLevel: { helpAfter: 'tools', recordedAfter: 'tools', refusal: OWN_TOOLS_REFUSAL },
};

/** The options of metatool/awareness and metatool/multi (no queries per tool: they read upstream's items). */
export const METATOOL_ITEM_OPTIONS: readonly TaskOptionSpec[] = [SHOTS, PROMPTS];
/** The options of metatool/scenario and metatool/reliability. */
export const METATOOL_QUERY_OPTIONS: readonly TaskOptionSpec[] = [PER_TOOL, SHOTS, PROMPTS];
/** The options of metatool/similar: those of scenario and reliability, and a user's own tool set. */
export const METATOOL_SIMILAR_OPTIONS: readonly TaskOptionSpec[] = [PER_TOOL, SHOTS, PROMPTS, TOOLS, EMBEDDER];
