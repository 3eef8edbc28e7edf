import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { openOutFile } from './shared.js';

const dir = mkdtempSync(join(tmpdir(), 'assay-out-file-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('openOutFile: the parts reach --out only at commit; an abort leaves the file as it was and no part file', () => {
  const file = join(dir, 'export.csv');
  writeFileSync(file, 'an earlier export\n');
  const failed = openOutFile(file);
  failed.write('a,b\n');
  failed.write('1,2\n');
  assert.equal(readFileSync(file, 'utf8'), 'an earlier export\n', 'nothing replaced while parts are written');
  failed.abort();
  assert.equal(readFileSync(file, 'utf8'), 'an earlier export\n');
  assert.deepEqual(readdirSync(dir), ['export.csv']);

  const done = openOutFile(file);
  done.write('a,b\n');
  done.write('1,"é ✓"\n');
  done.commit();
  assert.equal(readFileSync(file, 'utf8'), 'a,b\n1,"é ✓"\n');
  assert.deepEqual(readdirSync(dir), ['export.csv']);
});

test('openOutFile: a folder in the way is refused before anything is written, naming the file', () => {
  assert.throws(() => openOutFile(dir), (error: Error) => error.message === `cannot write --out ${dir}: it is a folder`);
  assert.deepEqual(readdirSync(dirname(dir)).filter((f) => f.startsWith(`.${basename(dir)}.`)), [], 'no part file beside it');
});
