import { createRequire } from 'node:module';
import { nearestName } from '../core/nearest-name.js';
import { InputError } from '../core/index.js';
import { CASES_OPTIONS } from './cases/options.js';
import { FUNCTIONCHAT_OPTIONS } from './functionchat/option-specs.js';
import { GROUNDEDNESS_OPTIONS } from './groundedness/options.js';
import { METATOOL_ITEM_OPTIONS, METATOOL_QUERY_OPTIONS, METATOOL_SIMILAR_OPTIONS } from './metatool/option-specs.js';
import { SUMMARIES_OPTIONS } from './summaries/option-specs.js';
import type { Task, TaskOptionSpec } from './task.js';

/**
 * The built-in tasks are loaded when first asked for, a family at a time: a `metatool/similar` run
 * does not load FunctionChat's, the summaries', groundedness', harm's or cases' code (nor Ajv, the
 * CSV parser or the Jinja engine they bring). Loading is synchronous (`require` of an ES module,
 * Node ≥ 20.19), so `findTask` and `allTasks` keep their synchronous form. Listing every task
 * (`assay list`, `allTasks`) loads them all.
 */
const load = createRequire(import.meta.url);

interface TaskFamily {
  /** Whether a built-in task of this name would be this family's (names never overlap between families). */
  readonly owns: (name: string) => boolean;
  readonly module: string;
  readonly tasks: (exports: Record<string, unknown>) => readonly Task[];
  /**
   * Tasks of the family that can be loaded alone (module, export), for a command that names one:
   * the very objects the family's module gives. A `metatool/similar` run loaded all five MetaTool
   * tasks and what only the others import (~10–15 ms of CPU at start-up, docs/benchmarks.md, branch
   * `startcpu`).
   */
  readonly alone?: Readonly<Record<string, { readonly module: string; readonly name: string }>>;
}

/** In the order `assay list` shows them. */
const FAMILIES: readonly TaskFamily[] = [
  {
    owns: (n) => n.startsWith('metatool/'),
    module: './metatool/index.js',
    tasks: (m) => m['metatoolTasks'] as readonly Task[],
    alone: {
      'metatool/awareness': { module: './metatool/awareness.js', name: 'awarenessTask' },
      'metatool/similar': { module: './metatool/similar.js', name: 'similarTask' },
      'metatool/scenario': { module: './metatool/scenario.js', name: 'scenarioTask' },
      'metatool/reliability': { module: './metatool/reliability.js', name: 'reliabilityTask' },
      'metatool/multi': { module: './metatool/multi.js', name: 'multiTask' },
    },
  },
  { owns: (n) => n.startsWith('functionchat/'), module: './functionchat/index.js', tasks: (m) => m['functionchatTasks'] as readonly Task[] },
  { owns: (n) => n.startsWith('summaries/'), module: './summaries/task.js', tasks: (m) => [m['summariesTask'] as Task] },
  { owns: (n) => n.startsWith('quality/'), module: './groundedness/task.js', tasks: (m) => [m['groundednessTask'] as Task] },
  // The shipped harm resources are found by listing their folder: the names are known once loaded.
  { owns: (n) => n.startsWith('harm/'), module: './harm/task.js', tasks: (m) => m['shippedHarmTasks'] as readonly Task[] },
  { owns: (n) => n === 'cases', module: './cases/task.js', tasks: (m) => [m['casesTask'] as Task] },
];

const familyTasks = new Map<TaskFamily, readonly Task[]>();

function tasksOf(family: TaskFamily): readonly Task[] {
  let tasks = familyTasks.get(family);
  if (tasks === undefined) {
    tasks = family.tasks(load(family.module) as Record<string, unknown>);
    familyTasks.set(family, tasks);
  }
  return tasks;
}

/** Tasks loaded alone (`TaskFamily.alone`), by module. */
const aloneTasks = new Map<string, Task>();

/** The families and lone tasks loaded so far, by module (for the test that a run loads only its own). */
export const loadedTaskModules = (): string[] => [...FAMILIES.filter((f) => familyTasks.has(f)).map((f) => f.module), ...aloneTasks.keys()];

const builtIn = (name: string): Task | undefined => {
  const family = FAMILIES.find((f) => f.owns(name));
  if (!family) return undefined;
  const alone = familyTasks.has(family) ? undefined : family.alone?.[name];
  if (alone === undefined) return tasksOf(family).find((t) => t.name === name);
  let task = aloneTasks.get(alone.module);
  if (task === undefined) {
    task = (load(alone.module) as Record<string, unknown>)[alone.name] as Task;
    aloneTasks.set(alone.module, task);
  }
  return task;
};

const everyBuiltIn: Task[] = [];
function loadAll(): Task[] {
  if (everyBuiltIn.length === 0) everyBuiltIn.push(...FAMILIES.flatMap(tasksOf));
  return everyBuiltIn;
}

/**
 * Every task assay can run, in the order `assay list` shows them. An array that loads the tasks
 * the first time it is read (see above): reading it, like any array, is all a caller does.
 */
export const allTasks: readonly Task[] = new Proxy(everyBuiltIn, {
  get: (target, key, receiver) => (loadAll(), Reflect.get(target, key, receiver)),
  has: (target, key) => (loadAll(), Reflect.has(target, key)),
  ownKeys: (target) => (loadAll(), Reflect.ownKeys(target)),
  getOwnPropertyDescriptor: (target, key) => (loadAll(), Reflect.getOwnPropertyDescriptor(target, key)),
  set: () => false,
  deleteProperty: () => false,
  defineProperty: () => false,
});

/**
 * What `assay run` and `assay samples` offer for the tasks' own options, known without loading
 * them (the options are defined in small modules of their own): the tasks that declare
 * `ownOptions`, in the order of `allTasks`. A test holds this to the loaded tasks.
 */
export const TASK_OPTION_FACTS: readonly { readonly task: string; readonly ownOptions: readonly TaskOptionSpec[] }[] = [
  { task: 'metatool/awareness', ownOptions: METATOOL_ITEM_OPTIONS },
  { task: 'metatool/similar', ownOptions: METATOOL_SIMILAR_OPTIONS },
  { task: 'metatool/scenario', ownOptions: METATOOL_QUERY_OPTIONS },
  { task: 'metatool/reliability', ownOptions: METATOOL_QUERY_OPTIONS },
  { task: 'metatool/multi', ownOptions: METATOOL_ITEM_OPTIONS },
  { task: 'functionchat/singlecall', ownOptions: FUNCTIONCHAT_OPTIONS },
  { task: 'functionchat/dialog', ownOptions: FUNCTIONCHAT_OPTIONS },
  { task: 'functionchat/calldecision', ownOptions: FUNCTIONCHAT_OPTIONS },
  { task: 'summaries/alignment', ownOptions: SUMMARIES_OPTIONS },
  { task: 'quality/groundedness', ownOptions: GROUNDEDNESS_OPTIONS },
  { task: 'cases', ownOptions: CASES_OPTIONS },
];

/** Tasks a library user (or a test) made known by name, after the built-in ones. */
const registered = new Map<string, Task>();

/**
 * Makes a task of the caller's own runnable by name (`startRun`, `resumeRun`, `rescoreRun` find
 * it like a built-in one) in this process. Refuses a name that is taken.
 */
export function registerTask(task: Task): void {
  if (builtIn(task.name) !== undefined || registered.has(task.name)) throw new InputError(`a task named "${task.name}" exists already`);
  registered.set(task.name, task);
}

/** The task of that name, built in, registered, or a user's harm measurement resource (`harm:<folder>`); undefined when there is none (see `findTask` for the refusal). */
export function taskNamed(name: string): Task | undefined {
  return builtIn(name) ?? registered.get(name) ?? harmFolderTask(name);
}

function harmFolderTask(name: string): Task | undefined {
  if (!name.startsWith('harm:')) return undefined;
  const harm = load('./harm/task.js') as { harmFolderTask: (name: string) => Task | undefined };
  return harm.harmFolderTask(name);
}

export function findTask(name: string): Task {
  const task = taskNamed(name);
  if (!task) {
    // A name a task's contains or that contains a task's own part (`similar`, `run-metatool/similar`);
    // else the nearest by spelling. (A task without a family, `cases`, is its own part: an empty
    // part would be in every name.)
    const ownPart = (taskName: string): string => taskName.slice(taskName.indexOf('/') + 1);
    const containing = allTasks.filter((t) => t.name.includes(name) || name.includes(ownPart(t.name))).map((t) => t.name);
    const nearest = nearestName(name, allTasks.map((t) => t.name));
    const near = containing.length > 0 ? containing : nearest !== undefined ? [nearest] : [];
    const hint = near.length > 0 ? `did you mean ${near.join(', ')}?` : `run "assay list" to see the tasks`;
    throw new InputError(`unknown task "${name}"; ${hint}`);
  }
  return task;
}
