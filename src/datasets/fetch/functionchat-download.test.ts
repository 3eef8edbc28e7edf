import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { InputError } from '../../core/errors.js';
import { readFunctionChatFile } from '../functionchat/read-files.js';
import { ensureDataset, formatVerifyReport, verifyDataset, type EnsureDatasetOptions } from './download.js';
import { FunctionChatFileServer } from './test-support/functionchat-file-server.js';
import { listFiles } from '../../testing/files.js';
import { needsData, testDataDir } from '../../testing/test-data.js';

const sha = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

// The real FunctionChat-Bench files are served and downloaded here: without them every test is skipped.
const skip = needsData('functionchat');
const sharedDir = testDataDir();
// Computed from the shared files here, independently of the manifest's pinned values.
let expectedFiles: string[] = [];
let expectedSha = new Map<string, string>();
const V2 = 'cb32af378a2b94ee84fc4d3cb50302377c7ff679';
const PAPER = '4c630984fd9aa54e2eb48ef53f2dc16d4d69d95a';

const temps: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(path.join(tmpdir(), 'assay-fcfetch-'));
  temps.push(dir);
  return dir;
};

let server: FunctionChatFileServer;
let downloadedDir = '';
const options = (dataDir: string, extra: Partial<EnsureDatasetOptions> = {}): EnsureDatasetOptions => ({
  dataDir,
  baseUrl: server.baseUrl,
  retryDelayMs: 1,
  onWarning: () => undefined,
  ...extra,
});

before(async () => {
  if (skip) return;
  expectedFiles = listFiles(sharedDir, 'functionchat');
  expectedSha = new Map(expectedFiles.map((f) => [f, sha(readFileSync(path.join(sharedDir, f)))]));
  server = await FunctionChatFileServer.start(path.join(sharedDir, 'functionchat'));
});

after(async () => {
  await server?.close();
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

test('a fresh download fetches both versions, each from its own commit, byte for byte', { skip }, async () => {
  downloadedDir = tempDir();
  const result = await ensureDataset('functionchat', options(downloadedDir));
  assert.equal(expectedFiles.length, 17);
  assert.deepEqual(listFiles(downloadedDir, 'functionchat'), expectedFiles, 'the same files as the shared copy, no .part left');
  for (const file of expectedFiles) assert.equal(sha(readFileSync(path.join(downloadedDir, file))), expectedSha.get(file), file);
  assert.deepEqual([...result.downloaded].sort(), expectedFiles);
  assert.deepEqual(result.derived, []);
  assert.deepEqual(result.verified, []);

  const asked = server.requests.map((r) => decodeURIComponent(r));
  assert.ok(asked.includes(`/repo/${V2}/LICENSE`));
  assert.ok(asked.includes(`/repo/${V2}/NOTICE.md`));
  assert.ok(asked.includes(`/repo/${V2}/data/FunctionChat-CallDecision.jsonl`));
  assert.ok(asked.includes(`/repo/${PAPER}/data/FunctionChat-Dialog.jsonl`));
  assert.equal(asked.filter((r) => r.startsWith(`/repo/${PAPER}/`)).length, 7);
  assert.equal(asked.length, 17, 'one request per file');

  const report = await verifyDataset('functionchat', downloadedDir);
  assert.equal(report.ok, true, formatVerifyReport(report));
  // The loader reads the downloaded file as it reads the shared one.
  const key = 'functionchat/paper-2024-09/rubric_call.txt';
  assert.equal((await readFunctionChatFile(downloadedDir, key)).sha256, expectedSha.get(key));
});

test('a second call downloads nothing; a missing file is fetched alone', { skip }, async () => {
  const before = server.requests.length;
  const again = await ensureDataset('functionchat', options(downloadedDir));
  assert.deepEqual(again.downloaded, []);
  assert.equal(again.verified.length, 17);
  assert.equal(server.requests.length, before);

  const dir = tempDir();
  cpSync(path.join(downloadedDir, 'functionchat'), path.join(dir, 'functionchat'), { recursive: true });
  rmSync(path.join(dir, 'functionchat/paper-2024-09/system_prompt.txt'));
  const result = await ensureDataset('functionchat', options(dir));
  assert.deepEqual(result.downloaded, ['functionchat/paper-2024-09/system_prompt.txt']);
  assert.deepEqual(server.requests.slice(before).map((r) => decodeURIComponent(r)), [`/repo/${PAPER}/data/system_prompt.txt`]);
});

test('a corrupted served file is refused with its URL, and leaves no file behind', { skip }, async () => {
  const dir = tempDir();
  const key = 'functionchat/v2.0.0/FunctionChat-Dialog.jsonl';
  const corrupted = Buffer.from(readFileSync(path.join(sharedDir, key)));
  corrupted[100] = (corrupted[100] as number) ^ 1;
  server.overrides.set(`/repo/${V2}/data/FunctionChat-Dialog.jsonl`, corrupted);
  try {
    await assert.rejects(ensureDataset('functionchat', options(dir)), (error: unknown) => {
      assert.ok(error instanceof InputError);
      assert.equal(
        error.message,
        `checksum mismatch for ${server.baseUrl}${V2}/data/FunctionChat-Dialog.jsonl: expected ${expectedSha.get(key)}, got ${sha(corrupted)}`,
      );
      return true;
    });
  } finally {
    server.overrides.delete(`/repo/${V2}/data/FunctionChat-Dialog.jsonl`);
  }
  assert.equal(existsSync(path.join(dir, key)), false);
  assert.equal(existsSync(path.join(dir, `${key}.part`)), false);
});

test('a missing upstream file is the FunctionChat-Bench "not found" error', { skip }, async () => {
  await assert.rejects(
    ensureDataset('functionchat', options(tempDir(), { baseUrl: `${server.origin}/no-such-repo/` })),
    /^InputError: FunctionChat-Bench data not found in .* and could not be downloaded \(HTTP 404 for http:.*\/no-such-repo\/cb32af378a2b94ee84fc4d3cb50302377c7ff679\/LICENSE\): .*a folder containing functionchat\/$/,
  );
});

test('the shared copy matches the manifest', { skip }, async () => {
  const report = await verifyDataset('functionchat', sharedDir);
  assert.equal(report.ok, true, formatVerifyReport(report));
  assert.deepEqual([...report.verified].sort(), expectedFiles);
});
