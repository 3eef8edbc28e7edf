import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allTasks, findTask, loadedTaskModules, registerTask, TASK_OPTION_FACTS, taskNamed } from './registry.js';
import type { Task, TaskOptionSpec } from './task.js';

// The first test must stay first: it looks at what the registry loaded on its own.
test('finding a task loads its own module or family only; listing loads them all', () => {
  assert.deepEqual(loadedTaskModules(), []);
  const similar = findTask('metatool/similar');
  assert.equal(similar.name, 'metatool/similar');
  // A MetaTool task is loaded alone, not with the other four.
  assert.deepEqual(loadedTaskModules(), ['./metatool/similar.js']);
  // A name no family owns loads nothing more.
  assert.equal(taskNamed('toy/unknown'), undefined);
  assert.deepEqual(loadedTaskModules(), ['./metatool/similar.js']);
  assert.equal(taskNamed('functionchat/dialog')?.name, 'functionchat/dialog');
  assert.deepEqual(loadedTaskModules(), ['./functionchat/index.js', './metatool/similar.js']);
  const names = allTasks.map((t) => t.name);
  assert.equal(loadedTaskModules().length, 7);
  // The task loaded alone is the object its family lists.
  assert.equal(allTasks.find((t) => t.name === 'metatool/similar'), similar);
  assert.equal(findTask('metatool/similar'), similar);
  assert.equal(taskNamed('metatool/unknown'), undefined);
  for (const name of ['metatool/awareness', 'summaries/alignment', 'quality/groundedness', 'harm/system-prompt-leakage', 'cases']) assert.ok(names.includes(name), name);
});

test('allTasks reads as the array of every built-in task, each the very object findTask gives', () => {
  assert.ok(Array.isArray(allTasks));
  assert.equal(allTasks.length, [...allTasks].length);
  assert.equal(allTasks.length, Object.keys(allTasks).length);
  assert.equal(allTasks[0]?.name, 'metatool/awareness');
  assert.equal(allTasks.at(-1)?.name, 'cases');
  assert.equal(new Set(allTasks.map((t) => t.name)).size, allTasks.length);
  for (const task of allTasks) assert.equal(findTask(task.name), task);
  assert.throws(() => {
    (allTasks as Task[]).push(allTasks[0] as Task);
  }, TypeError);
});

test('the option facts known without loading the tasks are what the tasks declare, in the same order', () => {
  const declared = allTasks.filter((t) => (t.ownOptions ?? []).length > 0).map((t) => ({ task: t.name, ownOptions: t.ownOptions }));
  assert.deepEqual(TASK_OPTION_FACTS, declared);
  // MetaTool's and FunctionChat's options among them, declared by their tasks (once core's own fields).
  const takers = (key: string): string[] => TASK_OPTION_FACTS.filter((f) => f.ownOptions.some((o) => o.key === key)).map((f) => f.task);
  assert.deepEqual(takers('perTool'), ['metatool/similar', 'metatool/scenario', 'metatool/reliability']);
  assert.deepEqual(takers('prompts'), ['metatool/awareness', 'metatool/similar', 'metatool/scenario', 'metatool/reliability', 'metatool/multi']);
  assert.deepEqual(takers('tools'), ['metatool/similar']);
  assert.deepEqual(takers('benchVersion'), ['functionchat/singlecall', 'functionchat/dialog', 'functionchat/calldecision']);
  // An option declared by several tasks is one declaration: the CLI offers one flag for it.
  for (const key of ['perTool', 'shots', 'prompts', 'benchVersion']) {
    const declarations: TaskOptionSpec[] = TASK_OPTION_FACTS.flatMap((f) => f.ownOptions.filter((o) => o.key === key));
    assert.equal(new Set(declarations).size, 1, key);
  }
});

test('registerTask: a task of the caller\'s own is found by name; a built-in or taken name is refused', () => {
  const toy: Task = { ...findTask('metatool/similar'), name: 'toy/registry-test' };
  registerTask(toy);
  assert.equal(findTask('toy/registry-test'), toy);
  assert.throws(() => registerTask(toy), /a task named "toy\/registry-test" exists already/);
  assert.throws(() => registerTask({ ...toy, name: 'functionchat/dialog' }), /exists already/);
  assert.throws(() => findTask('nope/none'), /unknown task "nope\/none"/);
});

test('a harm:<folder> name is a user resource task, named by the absolute folder', () => {
  const task = taskNamed('harm:some/folder');
  assert.ok(task?.name.startsWith('harm:/'), task?.name);
  assert.equal(taskNamed('harm-folder'), undefined);
});

test('an unknown task name suggests what it most likely meant, and nothing when nothing is near', () => {
  const refusal = (name: string): string => {
    try {
      findTask(name);
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error(`${name} was found`);
  };
  assert.equal(refusal('metatool/simlar'), 'unknown task "metatool/simlar"; did you mean metatool/similar?');
  assert.equal(refusal('similar'), 'unknown task "similar"; did you mean metatool/similar?');
  assert.equal(refusal('case'), 'unknown task "case"; did you mean cases?');
  // `cases` has no family part: it is not suggested for every name (it was, an empty part being in every name).
  assert.equal(refusal('foo'), 'unknown task "foo"; run "assay list" to see the tasks');
  assert.equal(refusal('xyzzy-task'), 'unknown task "xyzzy-task"; run "assay list" to see the tasks');
});
