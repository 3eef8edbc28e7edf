import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { MEMORY_FLAGS } from './v8-flags.js';
import { runAssay } from '../testing/spawn-cli.js';

// V8 writes "Error: unrecognized flag" to stderr, and goes on, for a flag it does not know: a
// Node whose V8 dropped one would print that line on every command.
test('every memory flag is one this V8 knows', () => {
  for (const flag of MEMORY_FLAGS) {
    const child = spawnSync(process.execPath, ['-e', `require('node:v8').setFlagsFromString(${JSON.stringify(flag)})`], { encoding: 'utf8' });
    assert.equal(child.stderr, '', flag);
    assert.equal(child.status, 0, flag);
  }
});

test('the CLI sets them and prints nothing about them', async () => {
  const result = await runAssay(['--version']);
  assert.equal(result.code, 0);
  assert.equal(result.stderr, '');
});
