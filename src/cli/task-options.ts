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
  seed: number;
  dataDir?: string;
  download: boolean;
  /** `run` only: they change the scoring, not the samples. */
  parser?: 'strict' | 'paper';
  rubric?: Record<string, string>;
  /** The options the tasks declare (`TaskOptionSpec`), by key (`perTool`, `articles`), as commander read them. */
  [declared: string]: unknown;
}

/** Every option the tasks declare, once each, in the order of `TASK_OPTION_FACTS`: the CLI does not know them by task. */
export function declaredOptions(): TaskOptionSpec[] {
  const seen = new Map<string, TaskOptionSpec>();
  for (const task of TASK_OPTION_FACTS) for (const spec of task.ownOptions) if (!seen.has(spec.key)) seen.set(spec.key, spec);
  return [...seen.values()];
}

/**
 * `base` in its order, each followed by the `placed` items anchored after it (`after`, an item's
 * key, placed ones included); placed items without an anchor first, those whose anchor is absent last.
 */
function inPlace<T>(base: readonly { key: string; item: T }[], placed: readonly { key: string; after: string | undefined; item: T }[]): T[] {
  const out: T[] = [];
  const done = new Set<string>();
  const emit = (entry: { key: string; item: T }): void => {
    out.push(entry.item);
    done.add(entry.key);
    for (const next of placed) if (next.after === entry.key && !done.has(next.key)) emit(next);
  };
  for (const first of placed) if (first.after === undefined) emit(first);
  for (const entry of base) emit(entry);
  for (const rest of placed) if (!done.has(rest.key)) emit(rest);
  return out;
}

function optionOf(spec: TaskOptionSpec): Option {
  const flag = flagOf(spec.key);
  const option = new Option(`${flag} ${spec.value}`, spec.description);
  // With choices, commander checks the value against them (a count's is recorded as a number).
  if (spec.choices) option.choices(spec.choices);
  else if (spec.kind === 'count') option.argParser(nonNegativeInt(flag));
  else if (spec.kind === 'positive') option.argParser(positiveInt(flag));
  if (spec.default !== undefined) option.default(spec.default);
  return option;
}

/**
 * Adds the options of {@link TaskFlags} that select samples (not `--parser` / `--rubric`), and
 * every option the tasks declare: the top-level ones where they were always listed, the others after.
 */
export function addTaskOptions(command: Command): Command {
  const generic = [
    new Option('-n, --limit <n>', "keep only the first N samples in the task's order (an articles folder: the first files by name, often all of one category); --sample draws them at random instead").argParser(positiveInt('--limit')),
    new Option('--sample <n>', "a seeded sample of N samples (by --seed), in proportion to each category where the task has categories (articles' folders or category column, harm persona templates, FunctionChat output or tools types, MetaTool scenarios), else a plain random sample; kept in the task's order and recorded with the run").argParser(positiveInt('--sample')),
    new Option('--seed <s>', 'seed of every random choice (query sampling, candidate order, exemplars)').default(0).argParser(nonNegativeInt('--seed')),
    dataDirOption(),
    new Option('--no-download', 'never download a missing dataset; fail instead'),
  ];
  const declared = declaredOptions();
  const listed = inPlace(
    generic.map((option) => ({ key: option.attributeName(), item: option })),
    declared.flatMap((spec) => (spec.topLevel ? [{ key: spec.key, after: spec.topLevel.helpAfter, item: optionOf(spec) }] : [])),
  );
  for (const option of [...listed, ...declared.filter((spec) => !spec.topLevel).map(optionOf)]) command.addOption(option);
  return command;
}

/** The tasks (built in) that declare the option: named when another task is refused it. */
const takersOf = (key: string): string[] => TASK_OPTION_FACTS.filter((t) => t.ownOptions.some((o) => o.key === key)).map((t) => t.task);

/**
 * Refuses those of `specs` given for a task that does not take them: only a task that declares an
 * option takes it, except the top-level ones every task's run records. A value equal to the
 * option's default is as if not given.
 */
function refuseOthers(taskName: string, mine: readonly TaskOptionSpec[], given: Readonly<Record<string, unknown>>, specs: readonly TaskOptionSpec[]): void {
  for (const spec of specs) {
    const value = given[spec.key];
    if (value === undefined || value === spec.default || spec.topLevel?.everyTask || mine.some((m) => m.key === spec.key)) continue;
    const takers = takersOf(spec.key).join(', ');
    const refusal = spec.topLevel?.refusal;
    throw new InputError(refusal ? refusal.replace('{takers}', takers).replace('{task}', taskName) : `${flagOf(spec.key)} is an option of ${takers}; ${taskName} does not take it`);
  }
}

/**
 * The value to record of an option the task takes, or undefined: its default when it needs
 * another option that was given, a path made absolute (a resume from another folder reads the
 * same file), a count chosen among a few as a number, a model id checked.
 */
function recordedValue(spec: TaskOptionSpec, given: Readonly<Record<string, unknown>>): string | number | undefined {
  let value = given[spec.key];
  if (spec.needs) {
    if (value !== undefined && given[spec.needs.key] === undefined) throw new InputError(spec.needs.message);
    if (value === undefined && given[spec.needs.key] !== undefined) value = spec.needs.default;
  }
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  if (spec.kind === 'model' && value !== (spec.needs?.default ?? spec.default)) parseModelId(String(value));
  if (spec.kind === 'path') return path.resolve(String(value));
  if ((spec.kind === 'count' || spec.kind === 'positive') && typeof value === 'string') return Number(value);
  return value;
}

/**
 * The task options of the flags. The key order is part of a run's identity: `run --resume` finds
 * the earlier run by comparing its recorded options as JSON, so it must not change: the generic
 * ones in their order, the top-level declared ones where they were always recorded
 * (`TaskOptionSpec.topLevel.recordedAfter`), then `task`.
 */
export function taskOptionsFrom(taskName: string, flags: TaskFlags): TaskOptions {
  if (flags.limit !== undefined && flags.sample !== undefined) throw new InputError('give either --limit (the first N samples) or --sample (N drawn at random), not both');
  const given = flags as Readonly<Record<string, unknown>>;
  const declared = declaredOptions();
  const mine = findTask(taskName).ownOptions ?? [];
  // The top-level ones are checked first, as they always were (`--tools` before `--articles`).
  refuseOthers(taskName, mine, given, declared.filter((s) => s.topLevel));
  const taken = (spec: TaskOptionSpec): boolean => spec.topLevel?.everyTask === true || mine.some((m) => m.key === spec.key);
  const topLevel = new Map<string, string | number>();
  for (const spec of declared) {
    if (!spec.topLevel || !taken(spec)) continue;
    const value = recordedValue(spec, given);
    if (value !== undefined && value !== '') topLevel.set(spec.key, value);
  }
  refuseOthers(taskName, mine, given, declared.filter((s) => !s.topLevel));
  const task: Record<string, string | number> = {};
  for (const spec of mine) {
    if (spec.topLevel) continue;
    const value = recordedValue(spec, given);
    if (value !== undefined) task[spec.key] = value;
  }
  const generic: { key: string; item: [string, unknown] | undefined }[] = [
    { key: 'parser', item: flags.parser !== undefined ? ['parser', flags.parser] : undefined },
    { key: 'limit', item: flags.limit ? ['limit', flags.limit] : undefined },
    { key: 'sample', item: flags.sample ? ['sample', flags.sample] : undefined },
    { key: 'rubrics', item: flags.rubric ? ['rubrics', flags.rubric] : undefined },
  ];
  const placed = declared.flatMap((spec) => (spec.topLevel ? [{ key: spec.key, after: spec.topLevel.recordedAfter, item: topLevel.has(spec.key) ? ([spec.key, topLevel.get(spec.key)] as [string, unknown]) : undefined }] : []));
  const entries = inPlace(generic, placed).filter((entry): entry is [string, unknown] => entry !== undefined);
  return Object.fromEntries([...entries, ...(Object.keys(task).length > 0 ? [['task', task]] : [])]) as TaskOptions;
}

/**
 * Whether the run reads the user's own file in place of its task's data set (`--tools`: a
 * `replacesDataset` option given): nothing to make ready or download for it.
 */
export function readsOwnData(options: TaskOptions): boolean {
  const recorded = options as Readonly<Record<string, unknown>>;
  return declaredOptions().some((spec) => spec.replacesDataset === true && (spec.topLevel ? recorded[spec.key] : options.task?.[spec.key]) !== undefined);
}
