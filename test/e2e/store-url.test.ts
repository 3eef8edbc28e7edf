import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { runAssay } from '../../src/testing/spawn-cli.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';

/** Without the benchmark data these tests are skipped, saying how to get it. */
const skip = needsData('metatool');

// A bad --db needs no server to be refused: these run in npm test (the PostgreSQL runs are in
// test/e2e/postgres.services.test.ts).
const work = mkdtempSync(path.join(tmpdir(), 'assay-store-url-e2e-'));
after(() => rmSync(work, { recursive: true, force: true }));
const env = { ASSAY_DATA_DIR: testDataDir() };

/** Exit 2 and exactly one line on stderr, with no password in it. */
function refusedInOneLine(result: { code: number | null; stderr: string; stdout: string }, pattern: RegExp): void {
  assert.equal(result.code, 2, result.stderr);
  assert.equal(result.stdout, '');
  const lines = result.stderr.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, result.stderr);
  assert.match(lines[0] ?? '', pattern);
  assert.doesNotMatch(result.stderr, /s3cret/);
}

test('a PostgreSQL server that is not there: one line naming the URL (password hidden) and the reason, exit 2, before any call', { skip }, async () => {
  const result = await runAssay(['run', 'metatool/similar', '-m', 'baseline:lexical', '--per-tool', '1', '--db', 'postgres://assay:s3cret@127.0.0.1:1/runs'], env);
  refusedInOneLine(result, /^assay: cannot open PostgreSQL store postgres:\/\/assay:\*\*\*@127\.0\.0\.1:1\/runs: .*ECONNREFUSED.*\(is PostgreSQL running there\?\)$/);
});

test('an unknown kind of store, sqlite:// and an empty sqlite: path are refused by every command that opens one', async () => {
  refusedInOneLine(await runAssay(['runs', '--db', 'mysql://root:s3cret@localhost/runs'], env), /^assay: store mysql:\/\/root:\*\*\*@localhost\/runs: unknown kind of store "mysql:"/);
  refusedInOneLine(await runAssay(['show', 'x', '--db', 'sqlite://runs.db'], env), /write a SQLite store as sqlite:<path>/);
  refusedInOneLine(await runAssay(['export', 'x', '--db', 'sqlite:'], { ...env, ASSAY_DB: undefined }), /the SQLite path is empty/);
  refusedInOneLine(await runAssay(['runs'], { ...env, ASSAY_DB: 'redis://127.0.0.1:6379' }), /unknown kind of store "redis:"/);
});

test('sqlite:<path> is the same store as the path', { skip }, async () => {
  const file = path.join(work, 'runs.db');
  const made = await runAssay(['run', 'metatool/similar', '-m', 'baseline:lexical', '--per-tool', '1', '--limit', '5', '--json', '--db', `sqlite:${file}`], env);
  assert.equal(made.code, 0, made.stderr);
  assert.ok(existsSync(file));
  const id = (JSON.parse(made.stdout) as { run: string }).run;
  const shown = await runAssay(['show', id, '--json', '--db', file], env);
  assert.equal(shown.code, 0, shown.stderr);
  assert.equal((JSON.parse(shown.stdout) as { run: string }).run, id);
});
