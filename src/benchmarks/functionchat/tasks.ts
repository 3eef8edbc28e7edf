import { InputError, system, user, type GenerateSettings, type Sample } from '../../core/index.js';
import {
  loadCallDecision,
  loadDialog,
  loadRubrics,
  loadSinglecall,
  loadSystemPrompt,
  resolveVersion,
  type FunctionChatSet,
  type FunctionChatVersion,
  type GradedItem,
  type Loaded,
} from '../../datasets/functionchat/index.js';
import { foldRows } from '../metrics-fold.js';
import type { ChartSpec, MetricDeclaration, MetricsFold, PreparedTask, Task, TaskContext, TaskOptions } from '../task.js';
import { CALLDECISION_CHARTS, DIALOG_CHARTS, SINGLECALL_CHARTS } from './charts.js';
import type { FunctionChatMeta, FunctionChatTarget } from './metadata.js';
import { withCustomRubrics } from './custom-rubrics.js';
import { FUNCTIONCHAT_OPTIONS, type FunctionChatRunOptions } from './option-specs.js';
import { callDecisionFold, dialogFold, singlecallFold } from './metrics.js';
import { gradeFunctionChat, scoreFunctionChat } from './scoring.js';
import { CALLDECISION_METRICS, DIALOG_METRICS, SINGLECALL_METRICS } from './metric-declarations.js';
import { functionchatTsv } from './report-tsv.js';

/** Bump when samples, prompts or scoring of a FunctionChat task change the numbers. */
export const FUNCTIONCHAT_TASK_VERSION = '1';

/** Upstream samples the model under test at temperature 0.1 (`DEFAULT_TEMPERATURE`). */
export const FUNCTIONCHAT_SETTINGS: GenerateSettings = { temperature: 0.1 };

/** The system prompt, rubrics and data all come from the version's folder, so the version names them. */
export const promptVersionFor = (version: FunctionChatVersion): string => `functionchat-prompts/1:${version}`;

function checkedLimit(taskName: string, options: TaskOptions): number | undefined {
  const { limit } = options;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) throw new InputError(`${taskName}: limit must be a non-negative integer, got ${String(limit)}`);
  return limit;
}

const targetOf = (item: GradedItem): FunctionChatTarget => ({ groundTruth: item.groundTruth, acceptable: item.acceptable, acceptableText: item.acceptableText });

const mergeChecksums = (...parts: readonly Loaded<unknown>[]): Record<string, string> => Object.assign({}, ...parts.map((p) => p.checksums)) as Record<string, string>;

/** The samples of one set, from its items and the version's system prompt. */
type BuildSamples = (dataDir: string, version: FunctionChatVersion) => Promise<{ samples: readonly Sample[]; loaded: readonly Loaded<unknown>[] }>;

/** `categoryKey`: the metadata key `--sample` keeps the proportions of (see `Task.categoryKey`). */
function functionchatTask(
  set: FunctionChatSet,
  description: string,
  build: BuildSamples,
  metricsFold: () => MetricsFold,
  metricDeclarations: readonly MetricDeclaration[],
  charts: readonly ChartSpec[],
  categoryKey: string,
): Task {
  const name = `functionchat/${set}`;
  return {
    name,
    version: FUNCTIONCHAT_TASK_VERSION,
    description,
    defaultSettings: FUNCTIONCHAT_SETTINGS,
    dataset: 'functionchat',
    categoryKey,
    ownOptions: FUNCTIONCHAT_OPTIONS,
    // `assay export --format tsv` writes upstream's report columns, so its tools read it as their own.
    exportFormats: { tsv: functionchatTsv },
    async prepare(ctx: TaskContext): Promise<PreparedTask> {
      const version = resolveVersion(name, (ctx.options as FunctionChatRunOptions).benchVersion, set);
      const limit = checkedLimit(name, ctx.options);
      const [{ samples, loaded }, shipped] = await Promise.all([build(ctx.dataDir, version), loadRubrics(ctx.dataDir, version)]);
      const { rubrics, checksums: customChecksums } = await withCustomRubrics(shipped.value, ctx.options.rubrics);
      return {
        samples: limit === undefined ? samples : samples.slice(0, limit),
        datasetChecksums: { ...mergeChecksums(...loaded, shipped), ...customChecksums },
        promptVersion: promptVersionFor(version),
        score: scoreFunctionChat,
        // Exact match first (no judge call), then the rubric of the item's output type.
        gradeWithJudge: (sample, output, judge, settings) => gradeFunctionChat(rubrics, sample, output, judge, settings),
        // `--exact-only`: the deterministic score stands (a call that is not an exact match fails, a text answer is no verdict).
        judgeOptional: true,
        // One rubric judgment: R repeats, each re-asked at most `maxParseRetries` times.
        judgeCallsPerSample: ({ repeats, maxParseRetries }) => repeats * (1 + maxParseRetries),
      };
    },
    charts,
    metrics: (rows) => foldRows(metricsFold(), rows),
    metricsFold,
    metricDeclarations,
  };
}

const buildSinglecall: BuildSamples = async (dataDir, version) => {
  const [items, prompt] = await Promise.all([loadSinglecall(dataDir, version), loadSystemPrompt(dataDir, version)]);
  const samples = items.value.map((item): Sample => {
    const metadata: FunctionChatMeta = {
      task: 'singlecall',
      bench_version: version,
      type_of_output: 'call',
      serial_num: item.serialNum,
      tools_type: item.toolsType,
      function_num: item.functionNum,
      function_name: item.functionName,
    };
    return { id: `singlecall-${item.serialNum}-${item.toolsType}`, input: [system(prompt.value), user(item.query)], tools: item.tools, target: targetOf(item), metadata };
  });
  return { samples, loaded: [items, prompt] };
};

const buildDialog: BuildSamples = async (dataDir, version) => {
  const [turns, prompt] = await Promise.all([loadDialog(dataDir, version), loadSystemPrompt(dataDir, version)]);
  const samples = turns.value.map((turn): Sample => {
    const metadata: FunctionChatMeta = {
      task: 'dialog',
      bench_version: version,
      type_of_output: turn.typeOfOutput,
      serial_num: turn.serialNum,
      dialog_num: turn.dialogNum,
      turn_num: turn.turnNum,
    };
    return { id: `dialog-${turn.dialogNum}-${turn.turnNum}`, input: [system(prompt.value), ...turn.history], tools: turn.tools, target: targetOf(turn), metadata };
  });
  return { samples, loaded: [turns, prompt] };
};

/** Call-decision rows carry their own system message (the system prompt), so none is added. */
const buildCallDecision: BuildSamples = async (dataDir, version) => {
  const items = await loadCallDecision(dataDir, version);
  const samples = items.value.map((item): Sample => {
    const metadata: FunctionChatMeta = {
      task: 'calldecision',
      bench_version: version,
      type_of_output: item.typeOfOutput,
      serial_num: item.serialNum,
      category: item.category,
    };
    return { id: `calldecision-${item.serialNum}`, input: item.messages, tools: item.tools, target: targetOf(item), metadata };
  });
  return { samples, loaded: [items] };
};

export const singlecallTask = functionchatTask(
  'singlecall',
  'FunctionChat-Bench single call: 25 functions × 4 Korean queries × 5 tool lists; exact match, else an LLM judge with the call rubric (pass counts per tool list).',
  buildSinglecall,
  singlecallFold,
  SINGLECALL_METRICS,
  SINGLECALL_CHARTS,
  'tools_type',
);

export const dialogTask = functionchatTask(
  'dialog',
  'FunctionChat-Bench dialog: 200 graded turns of 45 Korean conversations (call, completion, slot, relevance); exact match for calls, else an LLM judge (micro and macro pass rates).',
  buildDialog,
  dialogFold,
  DIALOG_METRICS,
  DIALOG_CHARTS,
  'type_of_output',
);

export const callDecisionTask = functionchatTask(
  'calldecision',
  'FunctionChat-Bench call decision (v2.0.0): 606 items — call, reject, or ask for all or some missing slots; exact match for calls, else an LLM judge (pass rate per category).',
  buildCallDecision,
  callDecisionFold,
  CALLDECISION_METRICS,
  CALLDECISION_CHARTS,
  'category',
);
