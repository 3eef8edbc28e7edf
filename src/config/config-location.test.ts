import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { locateConfigFile } from './config-location.js';
import { configFolder, refusal } from './test-support/config-folder.js';

test('--config wins over ASSAY_CONFIG, which wins over assay.yaml in the working directory', () => {
  const folder = configFolder();
  const cwdFile = folder.write('assay.yaml', 'models: {}\n');
  const flagFile = folder.write('flag.yaml', 'models: {}\n');
  const envFile = folder.write('env.yaml', 'models: {}\n');
  assert.deepEqual(locateConfigFile(folder.dir, 'flag.yaml', { ASSAY_CONFIG: envFile }), { path: flagFile, shown: 'flag.yaml', via: '--config' });
  assert.deepEqual(locateConfigFile(folder.dir, undefined, { ASSAY_CONFIG: envFile }), { path: envFile, shown: 'env.yaml', via: 'ASSAY_CONFIG' });
  assert.deepEqual(locateConfigFile(folder.dir, undefined, { ASSAY_CONFIG: '' }), { path: cwdFile, shown: 'assay.yaml', via: 'working directory' });
  assert.deepEqual(locateConfigFile(folder.dir, undefined, {}), { path: cwdFile, shown: 'assay.yaml', via: 'working directory' });
});

test('no file anywhere is no config: provider:model ids need none', () => {
  assert.equal(locateConfigFile(configFolder().dir, undefined, {}), undefined);
});

test('a file outside the working directory is shown by its absolute path', () => {
  const elsewhere = configFolder();
  const file = elsewhere.write('models.yaml', 'models: {}\n');
  assert.equal(locateConfigFile(configFolder().dir, file, {})?.shown, file);
});

test('a named file that is not there is refused, naming the option (a typo must not run without the models meant)', () => {
  const folder = configFolder();
  assert.equal(refusal(() => locateConfigFile(folder.dir, 'asay.yaml', {})).message, '--config asay.yaml: cannot read the config file (no such file or folder)');
  assert.equal(refusal(() => locateConfigFile(folder.dir, undefined, { ASSAY_CONFIG: 'gone.yaml' })).message, 'ASSAY_CONFIG gone.yaml: cannot read the config file (no such file or folder)');
  mkdirSync(path.join(folder.dir, 'folder.yaml'));
  assert.equal(refusal(() => locateConfigFile(folder.dir, 'folder.yaml', {})).message, '--config folder.yaml: cannot read the config file (it is not a file)');
  assert.equal(refusal(() => locateConfigFile(folder.dir, '', {})).message, '--config: empty; name a config file (e.g. assay.yaml)');
});

test('an assay.yaml that cannot be read is told, not skipped', () => {
  const folder = configFolder();
  mkdirSync(path.join(folder.dir, 'assay.yaml'));
  assert.equal(refusal(() => locateConfigFile(folder.dir, undefined, {})).message, 'assay.yaml in the working directory: cannot read it (it is not a file)');
});
