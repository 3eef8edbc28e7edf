import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { InputError } from '../../core/errors.js';
import { openDatabase } from './open-database.js';

const dir = mkdtempSync(join(tmpdir(), 'assay-open-db-'));
after(() => {
  chmodSync(join(dir, 'read-only'), 0o755);
  rmSync(dir, { recursive: true, force: true });
});
mkdirSync(join(dir, 'read-only'));

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Opening `file` fails with an InputError whose message matches `expected`. */
function refuses(file: string, expected: RegExp): void {
  assert.throws(
    () => openDatabase(file).close(),
    (error: unknown) => {
      assert.ok(error instanceof InputError, `an InputError, got ${String(error)}`);
      assert.match(error.message, expected);
      return true;
    },
  );
}

test('a database under a regular file: the folder cannot be created, because a path component is a file', () => {
  const file = join(dir, 'plain-file');
  writeFileSync(file, 'not a folder');
  // A file in the middle of the path (ENOTDIR) and a file where the last folder should be: one reason.
  refuses(join(file, 'deeper', 'assay.db'), new RegExp(`^cannot create folder ${escape(join(file, 'deeper'))} for database .*: a path component is a file$`));
  refuses(join(file, 'assay.db'), new RegExp(`^cannot create folder ${escape(file)} for database .*: a path component is a file$`));
});

test('folders that do not exist yet are made, each level; an existing one is used as it is', () => {
  const file = join(dir, 'new', 'deeper', 'still', 'assay.db');
  openDatabase(file).close();
  assert.ok(statSync(file).isFile());
  openDatabase(join(dir, 'new', 'other.db')).close();
});

test('a folder given as the database file says so', () => {
  const folder = join(dir, 'a-folder.db');
  mkdirSync(folder);
  refuses(folder, new RegExp(`^cannot open database ${escape(folder)}: ${escape(folder)} is a folder, not a database file$`));
});

// Root may write in any folder, so the permission check cannot fail for it.
const root = process.getuid?.() === 0;
test('a read-only folder: permission denied, with the folder', { skip: root ? 'running as root, who may write in a read-only folder' : false }, () => {
  const folder = join(dir, 'read-only');
  chmodSync(folder, 0o555);
  refuses(join(folder, 'assay.db'), new RegExp(`^cannot open database .*: cannot write in folder ${escape(folder)}: permission denied$`));
  refuses(join(folder, 'sub', 'assay.db'), new RegExp(`^cannot create folder ${escape(join(folder, 'sub'))} for database .*: permission denied$`));
});
