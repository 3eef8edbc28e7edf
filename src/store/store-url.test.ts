import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { InputError } from '../core/errors.js';
import { openStore } from './open-store.js';
import { parseStoreUrl, redactStoreUrl } from './store-url.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import { makeRun } from './test-support/store-contract.js';

const dir = mkdtempSync(join(tmpdir(), 'assay-store-url-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a path or sqlite:path is a SQLite store; postgres:// and postgresql:// are PostgreSQL', () => {
  assert.deepEqual(parseStoreUrl('.assay/assay.db'), { backend: 'sqlite', path: '.assay/assay.db' });
  assert.deepEqual(parseStoreUrl('/abs/runs.db'), { backend: 'sqlite', path: '/abs/runs.db' });
  assert.deepEqual(parseStoreUrl('sqlite:runs.db'), { backend: 'sqlite', path: 'runs.db' });
  assert.deepEqual(parseStoreUrl('SQLite:/abs/runs.db'), { backend: 'sqlite', path: '/abs/runs.db' });
  assert.deepEqual(parseStoreUrl('sqlite::memory:'), { backend: 'sqlite', path: ':memory:' });
  assert.deepEqual(parseStoreUrl(':memory:'), { backend: 'sqlite', path: ':memory:' });
  assert.deepEqual(parseStoreUrl('C:\\runs\\assay.db'), { backend: 'sqlite', path: 'C:\\runs\\assay.db' });
  assert.deepEqual(parseStoreUrl('postgres://u@h/db'), { backend: 'postgres', url: 'postgres://u@h/db' });
  assert.deepEqual(parseStoreUrl('PostgreSQL://u@h:5433/db?sslmode=require'), { backend: 'postgres', url: 'PostgreSQL://u@h:5433/db?sslmode=require' });
});

test('an unknown kind of store, sqlite:// and an empty path are refused in one line, password hidden', () => {
  const refusal = (text: string): string => {
    try {
      parseStoreUrl(text);
    } catch (error) {
      assert.ok(error instanceof InputError);
      assert.doesNotMatch(error.message, /\n|s3cret/);
      return error.message;
    }
    assert.fail(`${text} was accepted`);
  };
  assert.match(refusal('mysql://root:s3cret@localhost/runs'), /^store mysql:\/\/root:\*\*\*@localhost\/runs: unknown kind of store "mysql:"; give a SQLite file/);
  assert.match(refusal('sqlite://runs.db'), /write a SQLite store as sqlite:<path>/);
  assert.match(refusal('sqlite:'), /the SQLite path is empty/);
  assert.match(refusal(''), /the SQLite path is empty/);
});

test('redactStoreUrl hides a password in the user part or a password= parameter, whatever characters it holds', () => {
  assert.equal(redactStoreUrl('postgres://u:s3cret@h:5432/db'), 'postgres://u:***@h:5432/db');
  assert.equal(redactStoreUrl('postgres://u:p@ss/w:rd@h/db?sslmode=require'), 'postgres://u:***@h/db?sslmode=require');
  assert.equal(redactStoreUrl('postgres://u@h/db?password=s3cret&sslmode=require'), 'postgres://u@h/db?password=***&sslmode=require');
  assert.equal(redactStoreUrl('postgres://h/db'), 'postgres://h/db');
  assert.equal(redactStoreUrl('postgres://u@h/db'), 'postgres://u@h/db');
  assert.equal(redactStoreUrl('runs.db'), 'runs.db');
});

test('openStore opens the same SQLite file by path and by sqlite:path, and an in-memory one', async () => {
  const file = join(dir, 'a.db');
  const byPath = await openStore(file);
  assert.ok(byPath instanceof SqliteStore);
  await byPath.createRun(makeRun(), []);
  await byPath.close();
  const byUrl = await openStore(`sqlite:${file}`);
  assert.equal((await byUrl.listRuns()).length, 1);
  await byUrl.close();
  const memory = await openStore('sqlite::memory:');
  assert.deepEqual(await memory.listRuns(), []);
  await memory.close();
});

test('openStore: a PostgreSQL server that is not there is an InputError naming the URL, password hidden', async () => {
  await assert.rejects(openStore('postgres://u:s3cret@127.0.0.1:1/db'), (error: unknown) => {
    assert.ok(error instanceof InputError);
    assert.match(error.message, /^cannot open PostgreSQL store postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/db: .*ECONNREFUSED/);
    assert.doesNotMatch(error.message, /s3cret/);
    return true;
  });
});
