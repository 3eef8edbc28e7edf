import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { InputError } from '../core/errors.js';
import { resolveDataDir } from './data-dir.js';

const root = mkdtempSync(path.join(tmpdir(), 'assay-data-dir-'));
const flagDir = path.join(root, 'from-flag');
const envDir = path.join(root, 'from-env');
mkdirSync(flagDir);
mkdirSync(envDir);
writeFileSync(path.join(root, 'a-file'), '');
after(() => rmSync(root, { recursive: true, force: true }));

test('the --data-dir flag wins, resolved against the working directory', () => {
  assert.deepEqual(resolveDataDir({ flag: 'from-flag', cwd: root, env: { ASSAY_DATA_DIR: envDir } }), { dir: flagDir, source: 'flag' });
});

test('ASSAY_DATA_DIR is used when there is no flag', () => {
  assert.deepEqual(resolveDataDir({ env: { ASSAY_DATA_DIR: envDir, XDG_CACHE_HOME: '/xdg' } }), { dir: envDir, source: 'env' });
  assert.deepEqual(resolveDataDir({ flag: '', cwd: root, env: { ASSAY_DATA_DIR: 'from-env' } }), { dir: envDir, source: 'env' });
});

test('otherwise the user cache: XDG_CACHE_HOME when absolute, else ~/.cache', () => {
  assert.deepEqual(resolveDataDir({ env: { XDG_CACHE_HOME: '/xdg/cache', HOME: '/home/u' } }), { dir: '/xdg/cache/assay/datasets', source: 'cache' });
  assert.deepEqual(resolveDataDir({ env: { XDG_CACHE_HOME: 'relative', HOME: '/home/u' } }), { dir: '/home/u/.cache/assay/datasets', source: 'cache' });
  assert.deepEqual(resolveDataDir({ env: { HOME: '/home/u', ASSAY_DATA_DIR: '' } }), { dir: '/home/u/.cache/assay/datasets', source: 'cache' });
});

test('a named dir that does not exist, or is a file, is an InputError naming it', () => {
  const missing = path.join(root, 'nope');
  assert.throws(() => resolveDataDir({ flag: missing, env: {} }), (e: unknown) => {
    assert.ok(e instanceof InputError);
    assert.equal(e.message, `data dir ${missing} (from --data-dir) does not exist; expected a folder containing the data sets (metatool/, functionchat/)`);
    return true;
  });
  assert.throws(() => resolveDataDir({ env: { ASSAY_DATA_DIR: missing } }), /^InputError: data dir .*nope \(from ASSAY_DATA_DIR\) does not exist/);
  assert.throws(() => resolveDataDir({ env: { ASSAY_DATA_DIR: path.join(root, 'a-file') } }), /a-file \(from ASSAY_DATA_DIR\) is not a directory/);
});
