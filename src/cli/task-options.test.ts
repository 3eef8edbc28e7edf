import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { InputError } from '../core/index.js';
import { findTask, registerTask } from '../benchmarks/registry.js';
import { taskOptionsFrom, type TaskFlags } from './task-options.js';

const flags = (more: Partial<TaskFlags>): TaskFlags => ({ perTool: 5, seed: 0, prompts: 'assay', download: true, ...more });

test('--tools / --embedder: recorded as before for metatool/similar (same keys, same order), refused elsewhere with the same line', () => {
  const options = taskOptionsFrom('metatool/similar', flags({ tools: 'my-tools.json', limit: 3 }));
  assert.equal(JSON.stringify(options), JSON.stringify({ perTool: 5, prompts: 'assay', limit: 3, tools: path.resolve('my-tools.json'), embedder: 'lexical' }));
  assert.throws(
    () => taskOptionsFrom('metatool/awareness', flags({ tools: 'my-tools.json' })),
    (e: unknown) => e instanceof InputError && e.message === '--tools and --embedder are for metatool/similar only (candidate lists on your own tool set); metatool/awareness does not take them',
  );
});

test('a task takes --tools because it declares ownTools, not because of its name', () => {
  // A library user's task on their own tool set: the CLI knows it only by what it declares.
  registerTask({ ...findTask('metatool/similar'), name: 'mine/own-tools-selection' });
  const options = taskOptionsFrom('mine/own-tools-selection', flags({ tools: 'my-tools.json', embedder: 'lexical' }));
  assert.deepEqual([options.tools, options.embedder], [path.resolve('my-tools.json'), 'lexical']);
  registerTask({ ...findTask('metatool/similar'), name: 'mine/no-tools', ownTools: false });
  assert.throws(() => taskOptionsFrom('mine/no-tools', flags({ tools: 'my-tools.json' })), /are for metatool\/similar only .*mine\/no-tools does not take them/);
});
