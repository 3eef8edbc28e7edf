import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { findCommand } from './find-command.js';

test('a command is found as spawn would find it: on PATH, an empty PATH entry being the working folder, a path from the working folder', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'assay-find-command-'));
  const tool = path.join(dir, 'tool');
  writeFileSync(tool, '#!/bin/sh\necho {}\n');
  chmodSync(tool, 0o755);
  writeFileSync(path.join(dir, 'plain'), 'echo {}\n');
  assert.equal(findCommand('tool', '/', { PATH: dir }), tool);
  assert.equal(findCommand('tool', dir, { PATH: '' }), tool, 'an empty entry is the working folder (POSIX)');
  assert.equal(findCommand('tool', dir, { PATH: `/nonexistent${path.delimiter}` }), tool);
  assert.equal(findCommand('tool', dir, { PATH: '/nonexistent' }), undefined);
  assert.equal(findCommand('tool', dir, {}), undefined);
  assert.equal(findCommand('./tool', dir, {}), tool);
  assert.equal(findCommand('./plain', dir, {}), undefined, 'not executable');
  assert.equal(findCommand('plain', dir, { PATH: dir }), undefined, 'not executable');
});
