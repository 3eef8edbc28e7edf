import path from 'node:path';
import { Command, Option } from 'commander';
import { InputError, parseModelId } from '../core/index.js';
import { TASK_OPTION_FACTS, findTask } from '../benchmarks/registry.js';
import { flagOf } from '../benchmarks/own-options.js';
import type { TaskOptions, TaskOptionSpec } from '../benchmarks/task.js';
import { nonNegativeInt, positiveInt } from './options.js';
import { dataDirOption } from './shared.js';

/**
 * The flags that choose a task's samples, shared by `assay run` and `assay samples` so that the
 * samples listed are the samples run: same options, same defaults, same checks.
 */
export interface TaskFlags {
  limit?: number;
  sample?: number;
  perTool: number;
  shots?: '0' | '5';
  seed: number;
  prompts: 'assay' | 'upstream';
  benchVersion?: string;
  tools?: string;
  embedder?: string;
  dataDir?: string;
  download: boolean;
  /** `run` only: they change the scoring, not the samples. */
  parser?: 'strict' | 'paper';
  rubric?: Record<string, string>;
}

/** Adds the options of {@link TaskFlags} that select samples (not `--parser` / `--rubric`). */
export function addTaskOptions(command: Command): Command {
  command
    .addOption(new Option('-n, --limit <n>', "keep only the first N samples in the task's order (an articles folder: the first files by name, often all of one category); --sample draws them at random instead").argParser(positiveInt('--limit')))
    .addOption(
      new Option('--sample <n>', "a seeded sample of N samples (by --seed), in proportion to each category where the task has categories (articles' folders or category column, harm persona templates, FunctionChat output or tools types, MetaTool scenarios), else a plain random sample; kept in the task's order and recorded with the run").argParser(positiveInt('--sample')),
    )
    .addOption(new Option('--per-tool <n>', 'queries drawn per tool (MetaTool similar/scenario/reliability)').default(5).argParser(positiveInt('--per-tool')))
    .addOption(new Option('--shots <k>', 'in-context examples (default 0; upstream prompts are as shipped)').choices(['0', '5']))
    .addOption(new Option('--seed <s>', 'seed of every random choice (query sampling, candidate order, exemplars)').default(0).argParser(nonNegativeInt('--seed')))
    .addOption(new Option('--prompts <which>', 'assay: rebuilt prompts, shuffled candidates; upstream: the shipped prompt files byte for byte').choices(['assay', 'upstream']).default('assay'))
    .addOption(new Option('--bench-version <v>', 'data + rubrics + system prompt version (FunctionChat: v2.0.0 default, paper-2024-09)'))
    .addOption(new Option('--tools <file>', 'metatool/similar on your own tool set: a JSON array of {name, description, queries} (see docs/metatool.md)'))
    .addOption(new Option('--embedder <id>', 'with --tools: what finds each tool\'s 9 nearest tools — lexical (BM25 between descriptions, default) or local:<embedding model.gguf>'))
    .addOption(dataDirOption())
    .addOption(new Option('--no-download', 'never download a missing dataset; fail instead'));
  for (const option of ownTaskOptions()) command.addOption(option);
  return command;
}

/** Every option the tasks declare for themselves, once each (`TaskOptionSpec`): the CLI does not know them by task. */
function ownTaskOptions(): Option[] {
  const seen = new Map<string, TaskOptionSpec>();
  for (const task of TASK_OPTION_FACTS) for (const spec of task.ownOptions ?? []) if (!seen.has(spec.key)) seen.set(spec.key, spec);
  return [...seen.values()].map((spec) => {
    const option = new Option(`${flagOf(spec.key)} ${spec.value}`, spec.description);
    if (spec.choices) option.choices(spec.choices);
    if (spec.kind === 'count') option.argParser(nonNegativeInt(flagOf(spec.key)));
    return option;
  });
}

/**
 * The values of the options tasks declare, for the chosen task, in `TaskOptions.task` (paths made
 * absolute); one declared by another task only is refused, naming the tasks that take it.
 */
function ownOptionValues(taskName: string, flags: TaskFlags): Pick<TaskOptions, 'task'> {
  const given = flags as unknown as Record<string, unknown>;
  const mine = findTask(taskName).ownOptions ?? [];
  const values: Record<string, string | number> = {};
  for (const task of TASK_OPTION_FACTS) {
    for (const spec of task.ownOptions ?? []) {
      const value = given[spec.key];
      if (value === undefined || mine.some((m) => m.key === spec.key)) continue;
      const takers = TASK_OPTION_FACTS.filter((t) => t.ownOptions?.some((o) => o.key === spec.key)).map((t) => t.task);
      throw new InputError(`${flagOf(spec.key)} is an option of ${takers.join(', ')}; ${taskName} does not take it`);
    }
  }
  for (const spec of mine) {
    const value = given[spec.key];
    if (typeof value === 'string' || typeof value === 'number') values[spec.key] = spec.kind === 'path' && typeof value === 'string' ? path.resolve(value) : value;
  }
  return Object.keys(values).length > 0 ? { task: values } : {};
}

/**
 * `--tools` / `--embedder` as task options: only a task that declares `ownTools` takes them,
 * `--embedder` needs `--tools`, and the embedder is always recorded (`lexical` when not given).
 * The path is made absolute so a resume from another folder reads the same file.
 */
function ownToolsOptions(taskName: string, flags: TaskFlags): Pick<TaskOptions, 'tools' | 'embedder'> {
  if (flags.tools === undefined && flags.embedder === undefined) return {};
  if (findTask(taskName).ownTools !== true) {
    const takers = TASK_OPTION_FACTS.filter((t) => t.ownTools === true).map((t) => t.task);
    throw new InputError(`--tools and --embedder are for ${takers.join(', ')} only (candidate lists on your own tool set); ${taskName} does not take them`);
  }
  if (flags.tools === undefined) throw new InputError('--embedder ranks your own tools: give --tools my-tools.json too');
  if (flags.embedder !== undefined && flags.embedder !== 'lexical') parseModelId(flags.embedder);
  return { tools: path.resolve(flags.tools), embedder: flags.embedder ?? 'lexical' };
}

/**
 * The task options of the flags. The key order is part of a run's identity: `run --resume` finds
 * the earlier run by comparing its recorded options as JSON, so it must not change.
 */
export function taskOptionsFrom(taskName: string, flags: TaskFlags): TaskOptions {
  if (flags.limit !== undefined && flags.sample !== undefined) throw new InputError('give either --limit (the first N samples) or --sample (N drawn at random), not both');
  return {
    perTool: flags.perTool,
    ...(flags.shots !== undefined ? { shots: Number(flags.shots) as 0 | 5 } : {}),
    prompts: flags.prompts,
    ...(flags.parser !== undefined ? { parser: flags.parser } : {}),
    ...(flags.limit ? { limit: flags.limit } : {}),
    ...(flags.sample ? { sample: flags.sample } : {}),
    ...(flags.benchVersion ? { benchVersion: flags.benchVersion } : {}),
    ...(flags.rubric ? { rubrics: flags.rubric } : {}),
    ...ownToolsOptions(taskName, flags),
    ...ownOptionValues(taskName, flags),
  };
}
