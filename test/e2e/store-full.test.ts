import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { RESERVE_BYTES } from '../../src/store/sqlite/status-reserve.js';
import { waitUntil } from '../../src/testing/gate.js';
import { startGatedMetaToolServer, type GatedMetaToolServer } from '../../src/testing/gated-metatool-server.js';
import { collect, runAssay, spawnAssay } from '../../src/testing/spawn-cli.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';

/** MetaTool runs: without its data these are skipped, saying how to get it. */
const skip = needsData('metatool');

/**
 * Issue 26, item 8 (the store): a store that fills up while a run writes is the environment, not
 * a bug. On a real 8 MB tmpfs filled to the last byte while the run's calls are held in flight,
 * run ends as interrupted (exit 130) with one line naming the store and the cause, and once space
 * is back `assay resume` finishes it. Before: exit 1 "unexpected error". Its status `interrupted`
 * is written at once even on a disk full to the last byte: the store's reserve (`<db>-reserve`,
 * `StatusReserve`) gives back the room for that one write. Before the reserve the line said it
 * could not record the run, which read `running` until its lease lapsed (30 s), then `stale`.
 * Needs to mount a tmpfs (root); elsewhere the test is skipped with one line saying why.
 */
const SAMPLES = 12;
const env = { ASSAY_DATA_DIR: testDataDir(), OPENAI_API_KEY: 'sk-test-store-full' };

let fixture: GatedMetaToolServer;
let mount: string;
let mounted = false;

before(async () => {
  fixture = await startGatedMetaToolServer('assay-store-full-');
  mount = join(fixture.dir, 'tmpfs');
  mkdirSync(mount);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mount], { stdio: 'ignore' });
    mounted = true;
  } catch {
    mounted = false;
  }
});

after(async () => {
  if (mounted) execFileSync('umount', [mount]);
  await fixture.close();
});

/** Writes a file until the file system has no byte left. */
function fill(file: string): void {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
    // Then byte by byte, so that not even a page is left.
    try {
      for (;;) writeSync(fd, chunk, 0, 512);
    } catch {
      // full
    }
  } finally {
    closeSync(fd);
  }
}

test('a store that fills up ends the run as interrupted (exit 130) with one line naming the store and the cause; once space is back, resume finishes', { skip }, async (t) => {
  if (!mounted) return t.skip('cannot mount a tmpfs here (needs root): the full-store test is skipped');
  const { server, gate } = fixture;
  const db = join(mount, 'runs.db');
  const filler = join(mount, 'filler');
  gate.close();
  const from = server.requests.length;
  const child = spawnAssay(['run', 'metatool/similar', '--model', 'openai:fake-model', '--base-url', server.url, '--per-tool', '1', '--limit', String(SAMPLES), '--seed', '2', '--concurrency', '2', '--no-cache', '--json', '--db', db], env);
  const exited = collect(child);
  await waitUntil(() => server.requests.slice(from).filter((r) => r.outcome === 'pending').length === 2, 'two calls in flight');
  fill(filler);
  gate.open();
  const result = await exited;
  assert.equal(result.code, 130, result.stderr);
  const lines = result.stderr.split('\n').filter((line) => line.startsWith('assay:'));
  assert.equal(lines.length, 1, result.stderr);
  assert.match(lines[0] as string, new RegExp(`^assay: the store ${db.replace(/[/.]/g, '\\$&')} is full \\(SQLITE_FULL\\): free space, then run "assay resume (\\S+)"`));
  const runId = /assay resume (\S+?)"/.exec(lines[0] as string)?.[1] as string;

  assert.doesNotMatch(lines[0] as string, /could not record/);
  // The disk is still full to the last byte (less the reserve it gave back), and the run's end is
  // recorded: interrupted now, not running until its lease lapses.
  assert.ok(existsSync(filler));
  assert.equal(existsSync(`${db}-reserve`), false, 'the reserve was spent on the status');
  const status = async (): Promise<string | undefined> =>
    (JSON.parse((await runAssay(['runs', '--db', db, '--json'], env)).stdout) as { id: string; status: string }[]).find((r) => r.id === runId)?.status;
  assert.equal(await status(), 'interrupted');

  rmSync(filler);
  const resumed = await runAssay(['resume', runId, '--db', db, '--json'], env);
  assert.equal(resumed.code, 0, resumed.stderr);
  const store = await openSqliteStore(db);
  try {
    const results = await store.results(runId);
    assert.equal(results.filter((r) => r.status === 'done').length, SAMPLES);
  } finally {
    await store.close();
  }
  // The session that resumed made the reserve again.
  assert.equal(statSync(`${db}-reserve`).size, RESERVE_BYTES);
});
