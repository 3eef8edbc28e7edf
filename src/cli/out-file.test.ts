import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
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

// A process of its own per signal: the handler ends the process it runs in.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  test(`openOutFile: a ${signal} while parts are written removes the part file and ends the process by the signal, FILE untouched`, () => {
    const file = join(dir, `killed-${signal}.csv`);
    writeFileSync(file, 'an earlier export\n');
    const shared = new URL('./shared.js', import.meta.url).href;
    // Writes a part, then is sent the signal while it would go on writing (as an export between pages).
    const script = `
      const { openOutFile } = await import(${JSON.stringify(shared)});
      const out = openOutFile(${JSON.stringify(file)});
      out.write('a,b\\n');
      process.stdout.write('part written\\n');
      process.kill(process.pid, ${JSON.stringify(signal)});
      setTimeout(() => { out.write('1,2\\n'); out.commit(); process.stdout.write('still running\\n'); }, 2000);
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(child.signal, signal, `ended by ${signal} (status ${child.status}, stderr ${child.stderr})`);
    assert.equal(child.stdout, 'part written\n', 'nothing ran after the signal');
    assert.equal(readFileSync(file, 'utf8'), 'an earlier export\n');
    assert.deepEqual(readdirSync(dir).filter((f) => f.includes(`killed-${signal}`)), [`killed-${signal}.csv`], 'no part file left');
  });
}

test('openOutFile: once committed or aborted, its signal handlers are gone', () => {
  const before = ['SIGINT', 'SIGTERM', 'SIGHUP'].map((s) => process.listenerCount(s));
  const committed = openOutFile(join(dir, 'listeners-a.csv'));
  assert.deepEqual(['SIGINT', 'SIGTERM', 'SIGHUP'].map((s) => process.listenerCount(s)), before.map((n) => n + 1));
  committed.commit();
  const aborted = openOutFile(join(dir, 'listeners-b.csv'));
  aborted.abort();
  assert.deepEqual(['SIGINT', 'SIGTERM', 'SIGHUP'].map((s) => process.listenerCount(s)), before);
});
