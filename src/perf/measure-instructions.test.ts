import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { measureInstructions } from './measure-instructions.js';

const valgrindMissing = spawnSync('valgrind', ['--version']).error !== undefined ? 'valgrind is not installed (apt-get install valgrind)' : false;

/** A folder whose `bin/assay.js` adds up its first argument's count of numbers, then exits with its second. */
function fakeTree(): string {
  const tree = mkdtempSync(join(tmpdir(), 'assay-instructions-'));
  mkdirSync(join(tree, 'bin'));
  writeFileSync(join(tree, 'bin', 'assay.js'), 'let s = 0; for (let i = 0; i < Number(process.argv[2]); i++) s += i % 7; console.error(`sum ${s}`); process.exit(Number(process.argv[3]));\n');
  return tree;
}

test('measureInstructions: a command’s count under callgrind, its exit code, its last words without valgrind’s', { skip: valgrindMissing, timeout: 120_000 }, async () => {
  const tree = fakeTree();
  try {
    const counted = await measureInstructions(join(tree, 'bin', 'assay.js'), ['3000000', '3'], {}, tree);
    assert.equal(counted.exitCode, 3);
    // 3 million turns of a loop, a few instructions each, on top of node's start (~0.6 billion here).
    assert.ok(Number.isFinite(counted.instructions) && counted.instructions > 9_000_000, `${counted.instructions}`);
    let sum = 0;
    for (let i = 0; i < 3_000_000; i++) sum += i % 7;
    assert.equal(counted.stderrTail, `sum ${sum}`);
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
});

test('measureInstructions: without valgrind on the PATH, no count and a line that says how to get it', async () => {
  const tree = fakeTree();
  try {
    const missing = await measureInstructions(join(tree, 'bin', 'assay.js'), ['1', '0'], { PATH: join(tree, 'nothing-here') }, tree);
    assert.ok(Number.isNaN(missing.instructions));
    assert.match(missing.stderrTail, /^valgrind: .*ENOENT.*apt-get install valgrind/);
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
});
