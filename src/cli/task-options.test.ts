import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { Command } from 'commander';
import { InputError } from '../core/index.js';
import { findTask, registerTask } from '../benchmarks/registry.js';
import { addTaskOptions, readsOwnData, taskOptionsFrom, type TaskFlags } from './task-options.js';

/** The flags as commander gives them with no option written: the declared defaults are there. */
const parsed = (argv: string[]): TaskFlags => addTaskOptions(new Command('t')).exitOverride().configureOutput({ writeErr: () => undefined }).parse(argv, { from: 'user' }).opts<TaskFlags>();
const flags = (more: Partial<TaskFlags>): TaskFlags => ({ ...parsed([]), ...more });
const refusal = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof InputError, String(error));
    return error.message;
  }
  throw new Error('not refused');
};

test('--tools / --embedder: recorded as before for metatool/similar (same keys, same order), refused elsewhere with the same line', () => {
  const options = taskOptionsFrom('metatool/similar', flags({ tools: 'my-tools.json', limit: 3 }));
  assert.equal(JSON.stringify(options), JSON.stringify({ perTool: 5, prompts: 'assay', limit: 3, tools: path.resolve('my-tools.json'), embedder: 'lexical' }));
  assert.equal(readsOwnData(options), true);
  assert.equal(
    refusal(() => taskOptionsFrom('metatool/awareness', flags({ tools: 'my-tools.json' }))),
    '--tools and --embedder are for metatool/similar only (candidate lists on your own tool set); metatool/awareness does not take them',
  );
  assert.equal(refusal(() => taskOptionsFrom('summaries/alignment', flags({ embedder: 'lexical' }))), '--tools and --embedder are for metatool/similar only (candidate lists on your own tool set); summaries/alignment does not take them');
  assert.equal(refusal(() => taskOptionsFrom('metatool/similar', flags({ embedder: 'lexical' }))), '--embedder ranks your own tools: give --tools my-tools.json too');
  assert.throws(() => taskOptionsFrom('metatool/similar', flags({ tools: 't.json', embedder: 'nosuchprovider:x' })), InputError);
});

test('a task takes --tools because it declares it, not because of its name', () => {
  // A library user's task on their own tool set: the CLI knows it only by what it declares.
  const similar = findTask('metatool/similar');
  registerTask({ ...similar, name: 'mine/own-tools-selection' });
  const options = taskOptionsFrom('mine/own-tools-selection', flags({ tools: 'my-tools.json', embedder: 'lexical' }));
  assert.deepEqual([options['tools'], options['embedder']], [path.resolve('my-tools.json'), 'lexical']);
  registerTask({ ...similar, name: 'mine/no-tools', ownOptions: (similar.ownOptions ?? []).filter((o) => o.key !== 'tools' && o.key !== 'embedder') });
  assert.throws(() => taskOptionsFrom('mine/no-tools', flags({ tools: 'my-tools.json' })), /are for metatool\/similar only .*mine\/no-tools does not take them/);
});

test("every option MetaTool and FunctionChat declare is recorded at its old key, in the old order, whichever task runs", () => {
  // The order runs have recorded since before tasks declared options: perTool, shots, prompts,
  // parser, limit, sample, benchVersion, rubrics, tools, embedder, task.
  const all = taskOptionsFrom('metatool/similar', flags({ ...parsed(['--shots', '5', '--per-tool', '2', '--bench-version', 'paper-2024-09', '--tools', 't.json', '--embedder', 'local:./e.gguf']), parser: 'paper', limit: 4, rubric: { call: 'c.txt' } }));
  assert.equal(
    JSON.stringify(all),
    JSON.stringify({ perTool: 2, shots: 5, prompts: 'assay', parser: 'paper', limit: 4, benchVersion: 'paper-2024-09', rubrics: { call: 'c.txt' }, tools: path.resolve('t.json'), embedder: 'local:./e.gguf' }),
  );
  // Every task's run records MetaTool's defaults and takes --per-tool, --shots, --prompts and --bench-version, as before.
  const summaries = taskOptionsFrom('summaries/alignment', flags({ ...parsed(['--articles', 'a', '--sample', '3', '--bench-version', 'v2.0.0', '--coverage-questions', '0']) }));
  assert.equal(JSON.stringify(summaries), JSON.stringify({ perTool: 5, prompts: 'assay', sample: 3, benchVersion: 'v2.0.0', task: { articles: path.resolve('a'), coverageQuestions: 0 } }));
  assert.equal(readsOwnData(summaries), false);
  assert.equal(JSON.stringify(taskOptionsFrom('functionchat/dialog', parsed(['--per-tool', '3', '--shots', '0']))), JSON.stringify({ perTool: 3, shots: 0, prompts: 'assay' }));
  // A task's own option given to another task is refused, as before.
  assert.equal(refusal(() => taskOptionsFrom('metatool/similar', parsed(['--articles', 'a']))), '--articles is an option of summaries/alignment; metatool/similar does not take it');
});

test('help lists the declared options where they always were, with the same checks', () => {
  const command = addTaskOptions(new Command('t'));
  assert.deepEqual(
    command.options.map((o) => o.long),
    ['--limit', '--sample', '--per-tool', '--shots', '--seed', '--prompts', '--bench-version', '--tools', '--embedder', '--data-dir', '--no-download', '--articles', '--text-column', '--id-column', '--category-column', '--prompt', '--verdicts', '--coverage-questions', '--items', '--question-column', '--context-column', '--answer-column', '--threshold', '--file'],
  );
  assert.throws(() => parsed(['--per-tool', '0']), /--per-tool must be a positive integer, got "0"/);
  assert.throws(() => parsed(['--shots', '3']), /Allowed choices are 0, 5/);
  assert.throws(() => parsed(['--prompts', 'mine']), /Allowed choices are assay, upstream/);
});
