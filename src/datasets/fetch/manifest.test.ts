import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InputError } from '../../core/errors.js';
import { FUNCTIONCHAT_MANIFEST } from '../functionchat/manifest.js';
import { METATOOL_MANIFEST } from '../metatool/manifest.js';
import { remoteUrl } from './manifest.js';
import { getManifest } from './manifests.js';

test('remote paths are encoded segment by segment and .. climbs out of dataset/', () => {
  const base = 'https://raw.githubusercontent.com/HowieHwong/MetaTool/35e81bb7576826e980c80fed8f8c0a2b4a1e6fbb/dataset/';
  assert.equal(remoteUrl(base, 'scenario/artists&designers.json'), `${base}scenario/artists%26designers.json`);
  assert.equal(remoteUrl(base, 'scenario/Finance Staff.json'), `${base}scenario/Finance%20Staff.json`);
  assert.equal(remoteUrl(base, '../LICENSE'), 'https://raw.githubusercontent.com/HowieHwong/MetaTool/35e81bb7576826e980c80fed8f8c0a2b4a1e6fbb/LICENSE');
  assert.equal(remoteUrl('http://127.0.0.1:9/dataset', 'data/all_clean_data.csv'), 'http://127.0.0.1:9/dataset/data/all_clean_data.csv', 'a missing trailing slash is added');
});

test('the MetaTool manifest pins the upstream commit and every file once', () => {
  assert.equal(getManifest('metatool'), METATOOL_MANIFEST);
  assert.ok(METATOOL_MANIFEST.baseUrl.includes(METATOOL_MANIFEST.commit));
  const paths = METATOOL_MANIFEST.files.map((f) => f.path);
  assert.equal(new Set(paths).size, paths.length);
  assert.equal(paths.length, 18);
  for (const file of METATOOL_MANIFEST.files) assert.match(file.sha256, /^[0-9a-f]{64}$/, file.path);
  assert.equal(METATOOL_MANIFEST.derived[0]?.source.sha256, null, 'the pkl checksum is unknown offline');
});

test('an unknown dataset is an InputError listing the known ones', () => {
  assert.throws(() => getManifest('nope'), (e: unknown) => e instanceof InputError && e.message === 'unknown dataset "nope"; known datasets: metatool, functionchat');
});

test('the FunctionChat manifest pins each version folder to its own commit, and the license files to v2.0.0', () => {
  assert.equal(getManifest('functionchat'), FUNCTIONCHAT_MANIFEST);
  assert.deepEqual(FUNCTIONCHAT_MANIFEST.derived, []);
  const paths = FUNCTIONCHAT_MANIFEST.files.map((f) => f.path);
  assert.equal(new Set(paths).size, paths.length);
  assert.equal(paths.length, 17, '2 license files, 8 of v2.0.0, 7 of paper-2024-09 (no CallDecision)');
  // The commits as PROVENANCE.md gives them, written out independently of the manifest.
  const commitOf = (p: string): string =>
    p.startsWith('functionchat/paper-2024-09/') ? '4c630984fd9aa54e2eb48ef53f2dc16d4d69d95a' : 'cb32af378a2b94ee84fc4d3cb50302377c7ff679';
  for (const file of FUNCTIONCHAT_MANIFEST.files) {
    assert.match(file.sha256, /^[0-9a-f]{64}$/, file.path);
    const name = file.path.split('/').at(-1) as string;
    const upstreamPath = /^functionchat\/[^/]+$/.test(file.path) ? name : `data/${name}`;
    assert.equal(file.remote, `${commitOf(file.path)}/${upstreamPath}`, file.path);
  }
  assert.equal(
    remoteUrl(FUNCTIONCHAT_MANIFEST.baseUrl, FUNCTIONCHAT_MANIFEST.files.find((f) => f.path === 'functionchat/paper-2024-09/FunctionChat-Dialog.jsonl')?.remote ?? ''),
    'https://raw.githubusercontent.com/kakao/FunctionChat-Bench/4c630984fd9aa54e2eb48ef53f2dc16d4d69d95a/data/FunctionChat-Dialog.jsonl',
  );
});
