import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { collect, spawnAssay, type CliResult } from '../../src/testing/spawn-cli.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';
import { packageRoot } from '../../src/version.js';

// Node 20's recursive mkdirSync spins forever where a folder exists but will not take a child
// (ENOENT): under /proc, under a symbolic link to nothing. The CLI runs in a child process killed
// after a while, so a hang fails the test instead of hanging the suite.
const HANG_MS = 15_000;

async function assayWithin(args: readonly string[]): Promise<CliResult> {
  // The data dir only where there is one: the store's run below needs no benchmark data.
  const child = spawnAssay(args, existsSync(testDataDir()) ? { ASSAY_DATA_DIR: testDataDir() } : {});
  const timer = setTimeout(() => child.kill('SIGKILL'), HANG_MS);
  try {
    return await collect(child);
  } finally {
    clearTimeout(timer);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'assay-db-path-'));
// The command that makes a store (and its folders) when there is none: the others refuse (below).
// MetaTool on the demo's own tool list (shipped): no benchmark data needed, so these run on a fresh clone.
const RUN = ['run', 'metatool/similar', '--tools', join(packageRoot, 'resources', 'demo', 'tools.json'), '--embedder', 'lexical', '--prompts', 'assay', '--per-tool', '1', '--limit', '1', '-m', 'baseline:lexical'];
after(() => rmSync(dir, { recursive: true, force: true }));

test('--db under /proc: exit 2 at once, with the folder and why', { skip: existsSync('/proc/1') ? false : 'no /proc here' }, async () => {
  for (const db of ['/proc/1/nope/x.db', '/proc/nope/x.db']) {
    const result = await assayWithin([...RUN, '--db', db]);
    assert.equal(result.signal, null, `${db}: assay hung and was killed`);
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stdout, '');
    // /proc/1 refuses writes (permission denied); /proc itself takes no new folder even from root.
    assert.match(result.stderr, new RegExp(`^assay: cannot create folder ${db.replace('/x.db', '')} for database ${db}: (permission denied|/proc does not take new folders .*)\\n$`));
  }
});

test('export --out under /proc: exit 2 at once, with the folder and why', { skip: existsSync('/proc/1') ? needsData('metatool') : 'no /proc here' }, async () => {
  const db = join(dir, 'assay.db');
  const made = await assayWithin(['run', 'metatool/similar', '--per-tool', '1', '--limit', '1', '-m', 'baseline:lexical', '--json', '--db', db]);
  assert.equal(made.code, 0, made.stderr);
  const result = await assayWithin(['export', (JSON.parse(made.stdout) as { run: string }).run, '--out', '/proc/1/nope/rows.jsonl', '--db', db]);
  assert.equal(result.signal, null, 'assay hung and was killed');
  assert.equal(result.code, 2, result.stderr);
  assert.equal(result.stderr, 'assay: cannot write --out /proc/1/nope/rows.jsonl: permission denied\n');
});

test('--db under a symbolic link to nothing: exit 2 at once, naming the link', async () => {
  const link = join(dir, 'link');
  symlinkSync(join(dir, 'nothing'), link);
  const db = join(link, 'out', 'x.db');
  const result = await assayWithin([...RUN, '--db', db]);
  assert.equal(result.signal, null, 'assay hung and was killed');
  assert.equal(result.code, 2, result.stderr);
  assert.equal(result.stderr, `assay: cannot create folder ${join(link, 'out')} for database ${db}: ${link}: a symbolic link to nothing\n`);
});

test('assay data fetch with its default data dir under /proc: exit 2 at once, naming the folder (no download tried)', { skip: existsSync('/proc/1') ? false : 'no /proc here' }, async () => {
  // The default data dir is in the user's cache folder ($XDG_CACHE_HOME/assay/datasets).
  const child = spawnAssay(['data', 'fetch', 'metatool'], { ASSAY_DATA_DIR: '', XDG_CACHE_HOME: '/proc/nope' });
  const timer = setTimeout(() => child.kill('SIGKILL'), HANG_MS);
  const result = await collect(child).finally(() => clearTimeout(timer));
  assert.equal(result.signal, null, 'ended by itself, not killed after hanging');
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /^assay: cannot create the data dir \/proc\/nope\/assay\/datasets: \/proc\/nope: \/proc does not take new folders/);
});

test('a --db that does not exist: every command that only reads refuses it, naming the path, and creates no file or folder; run creates it', async () => {
  const parent = join(dir, 'typo');
  const db = join(parent, 'nested', 'asay.db');
  const review = join(dir, 'review.csv');
  writeFileSync(review, 'item,verdict\nx,pass\n');
  const readers: readonly (readonly string[])[] = [
    ['runs'],
    ['show', 'some-run'],
    ['report', 'some-run', '-o', join(dir, 'r.html')],
    ['export', 'some-run'],
    ['compare', 'run-a', 'run-b'],
    ['view', '--port', '0'],
    ['agreement', 'some-run', '--with', 'other-run'],
    ['review', 'some-run', '--apply', review],
    ['rescore', 'some-run', '--parser', 'paper'],
    ['resume', 'some-run'],
  ];
  for (const args of readers) {
    const result = await assayWithin([...args, '--db', db]);
    assert.equal(result.code, 2, `${args[0]}: ${result.stderr}`);
    assert.equal(result.stderr, `assay: no SQLite store at ${db} (--db): check the path (assay run creates a store)\n`, args[0]);
    assert.equal(existsSync(parent), false, `${args[0]} made ${parent}`);
  }
  const made = await assayWithin([...RUN, '--json', '--db', db]);
  assert.equal(made.code, 0, made.stderr);
  assert.ok(existsSync(db));
  const runs = await assayWithin(['runs', '--json', '--db', db]);
  assert.equal((JSON.parse(runs.stdout) as unknown[]).length, 1);
});
