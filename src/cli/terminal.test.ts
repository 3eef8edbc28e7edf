import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { packageRoot } from '../version.js';
import { rewriteLine, writeText } from './terminal.js';

function sink(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({ write: (chunk: Buffer, _encoding, done) => ((text += chunk.toString()), done()) });
  return { stream, text: () => text };
}

test('writeText keeps the CLI layout and shows every control of the text; rewriteLine adds only its own clear-line', () => {
  const out = sink();
  writeText(out.stream, 'run x\n  error: \x1b]0;title\x07\x1b[2J\r\n');
  rewriteLine(out.stream, 'downloading \x1b[31mred');
  assert.equal(out.text(), 'run x\n  error: \\u001b]0;title\\u0007\\u001b[2J\\u000d\n\r\x1b[Kdownloading \\u001b[31mred');
});

test('every console write of the CLI goes through terminal.ts', () => {
  const folder = join(packageRoot, 'src', 'cli');
  const offenders = readdirSync(folder)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && file !== 'terminal.ts')
    .flatMap((file) =>
      readFileSync(join(folder, file), 'utf8')
        .split('\n')
        .map((line, i) => ({ where: `src/cli/${file}:${i + 1}`, line }))
        .filter(({ line }) => /process\.(stdout|stderr)\.write\(|console\.(log|error|warn|info)\(/.test(line)),
    )
    .map(({ where, line }) => `${where}: ${line.trim()}`);
  assert.deepEqual(offenders, []);
});
