import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { InputError } from '../../core/errors.js';
import { ensureDataset, formatVerifyReport, verifyDataset, type DownloadProgress, type EnsureDatasetOptions } from './download.js';
import type { HttpGet } from '../../net/http-get.js';
import { METATOOL_MANIFEST } from '../metatool/manifest.js';
import type { DatasetManifest, DerivedGroup } from './manifest.js';
import { MetatoolFileServer } from './test-support/file-server.js';
import { pickleRecords } from './test-support/pickler.js';
import { listFiles } from '../../testing/files.js';
import { needsData, testDataDir as sharedDataDir, metatoolFile as sharedMetatoolFile } from '../../testing/test-data.js';

const sha = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

// The real MetaTool files are served and downloaded here: without them every test is skipped.
const skip = needsData('metatool');
const sharedDir = sharedDataDir();
// Computed from the shared files here, independently of the manifest's pinned values.
let expectedFiles: string[] = [];
let expectedSha = new Map<string, string>();

let records: Array<{ tool: string; embedding: number[] }> = [];
let fixturePkl: Buffer;
const group = METATOOL_MANIFEST.derived[0] as DerivedGroup;
/** The real manifest with the pkl pinned to the fixture, as the brief's test setup asks. */
let testManifest: DatasetManifest;

const temps: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(path.join(tmpdir(), 'assay-fetch-'));
  temps.push(dir);
  return dir;
};

let server: MetatoolFileServer;
/** A complete data dir made by the first test; later tests start from copies of it. */
let downloadedDir = '';
const warnings: string[] = [];

const options = (dataDir: string, extra: Partial<EnsureDatasetOptions> = {}): EnsureDatasetOptions => ({
  dataDir,
  baseUrl: server.baseUrl,
  manifest: testManifest,
  retryDelayMs: 1,
  onWarning: (m) => warnings.push(m),
  ...extra,
});

/** A copy of the complete data dir, minus the given files. */
function copyWithout(...remove: string[]): string {
  const dir = tempDir();
  cpSync(path.join(downloadedDir, 'metatool'), path.join(dir, 'metatool'), { recursive: true });
  for (const file of remove) rmSync(path.join(dir, file));
  return dir;
}

before(async () => {
  if (skip) return;
  expectedFiles = listFiles(sharedDir, 'metatool');
  expectedSha = new Map(expectedFiles.map((f) => [f, sha(readFileSync(path.join(sharedDir, f)))]));
  records = JSON.parse(readFileSync(sharedMetatoolFile('derived/tool_embedding.json'), 'utf8')) as Array<{ tool: string; embedding: number[] }>;
  fixturePkl = pickleRecords(records, { protocol: 4 });
  testManifest = { ...METATOOL_MANIFEST, derived: [{ ...group, source: { ...group.source, sha256: sha(fixturePkl), bytes: fixturePkl.length } }] };
  server = await MetatoolFileServer.start(path.join(sharedDir, 'metatool'));
  server.overrides.set('/dataset/tool_embedding.pkl', fixturePkl);
});

after(async () => {
  await server?.close();
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

test('a fresh download creates every file with the right checksum, and derives the rest', { skip }, async () => {
  downloadedDir = tempDir();
  const progress: DownloadProgress[] = [];
  warnings.length = 0;
  const result = await ensureDataset('metatool', options(downloadedDir, { onProgress: (p) => progress.push(p) }));

  assert.deepEqual(listFiles(downloadedDir, 'metatool'), expectedFiles, 'same files as the shared copy, no .part, no pkl left');
  for (const file of expectedFiles) assert.equal(sha(readFileSync(path.join(downloadedDir, file))), expectedSha.get(file), file);
  assert.deepEqual([...result.downloaded].sort(), expectedFiles.filter((f) => !f.startsWith('metatool/derived/')));
  assert.deepEqual(result.derived, ['metatool/derived/tool_embedding.json', 'metatool/derived/tool_neighbors_top20.json']);
  assert.deepEqual(result.verified, []);
  assert.deepEqual(result.sources, [{ url: `${server.baseUrl}tool_embedding.pkl`, sha256: sha(fixturePkl), bytes: fixturePkl.length, pinned: true }]);
  assert.deepEqual(warnings, [], 'a pinned source raises no warning');

  // Names with spaces and & are percent-encoded per segment; the LICENSE comes from the repository root.
  assert.ok(server.requests.includes('/dataset/scenario/Finance%20Staff.json'));
  assert.ok(server.requests.includes('/dataset/scenario/artists%26designers.json'));
  assert.ok(server.requests.includes('/LICENSE'));

  const csvSize = statSync(sharedMetatoolFile('data/all_clean_data.csv')).size;
  const csvProgress = progress.filter((p) => p.path === 'metatool/data/all_clean_data.csv');
  assert.ok(csvProgress.length > 1, 'progress is reported while streaming');
  assert.deepEqual(csvProgress.at(-1), { path: 'metatool/data/all_clean_data.csv', url: `${server.baseUrl}data/all_clean_data.csv`, receivedBytes: csvSize, totalBytes: csvSize });

  const report = await verifyDataset('metatool', downloadedDir);
  assert.equal(report.ok, true, formatVerifyReport(report));
  assert.equal(report.verified.length, expectedFiles.length);
});

test('a second call downloads nothing', { skip }, async () => {
  const before = server.requests.length;
  const result = await ensureDataset('metatool', options(downloadedDir));
  assert.deepEqual(result.downloaded, []);
  assert.deepEqual(result.derived, []);
  assert.deepEqual([...result.verified].sort(), expectedFiles);
  assert.equal(server.requests.length, before, 'no request made');
});

test('a damaged local file is downloaded again; only what is missing is fetched', { skip }, async () => {
  const dir = copyWithout('metatool/scenario/elders.json');
  writeFileSync(path.join(dir, 'metatool/LICENSE'), 'not the license');
  const result = await ensureDataset('metatool', options(dir));
  assert.deepEqual(result.downloaded, ['metatool/LICENSE', 'metatool/scenario/elders.json']);
  assert.deepEqual(result.derived, []);
  assert.equal(sha(readFileSync(path.join(dir, 'metatool/LICENSE'))), expectedSha.get('metatool/LICENSE'));
});

test('a corrupted served file is a checksum error and leaves no file behind', { skip }, async () => {
  const dir = copyWithout('metatool/plugin_des.json');
  const corrupted = Buffer.from(readFileSync(sharedMetatoolFile('plugin_des.json')));
  corrupted[10] = (corrupted[10] as number) ^ 1;
  server.overrides.set('/dataset/plugin_des.json', corrupted);
  try {
    await assert.rejects(ensureDataset('metatool', options(dir)), (error: unknown) => {
      assert.ok(error instanceof InputError);
      assert.equal(
        error.message,
        `checksum mismatch for ${server.baseUrl}plugin_des.json: expected ${expectedSha.get('metatool/plugin_des.json')}, got ${sha(corrupted)}`,
      );
      return true;
    });
  } finally {
    server.overrides.delete('/dataset/plugin_des.json');
  }
  assert.equal(existsSync(path.join(dir, 'metatool/plugin_des.json')), false);
  assert.equal(existsSync(path.join(dir, 'metatool/plugin_des.json.part')), false);
});

test('a 500 followed by success is retried', { skip }, async () => {
  const dir = copyWithout('metatool/big_tool_des.json');
  warnings.length = 0;
  server.failures.set('/dataset/big_tool_des.json', 1);
  const before = server.count('/dataset/big_tool_des.json');
  const result = await ensureDataset('metatool', options(dir));
  assert.deepEqual(result.downloaded, ['metatool/big_tool_des.json']);
  assert.equal(server.count('/dataset/big_tool_des.json') - before, 2);
  assert.equal(sha(readFileSync(path.join(dir, 'metatool/big_tool_des.json'))), expectedSha.get('metatool/big_tool_des.json'));
  assert.equal(warnings.length, 1);
  assert.match(warnings[0] as string, /^retrying http:.*big_tool_des\.json \(attempt 2\): HTTP 500/);
});

test('a server that keeps failing gives up after 3 attempts with the "not found" error', { skip }, async () => {
  const dir = copyWithout('metatool/scenario/Housewife.json');
  server.failures.set('/dataset/scenario/Housewife.json', 10);
  const before = server.count('/dataset/scenario/Housewife.json');
  try {
    await assert.rejects(ensureDataset('metatool', options(dir)), /^InputError: MetaTool data not found in .* and could not be downloaded \(HTTP 500 for http:.*Housewife\.json\)/);
  } finally {
    server.failures.delete('/dataset/scenario/Housewife.json');
  }
  assert.equal(server.count('/dataset/scenario/Housewife.json') - before, 3);
  assert.equal(existsSync(path.join(dir, 'metatool/scenario/Housewife.json.part')), false);
});

test('a dead server is an InputError saying what to do', { skip }, async () => {
  const dead = await MetatoolFileServer.start(path.join(sharedDir, 'metatool'));
  const deadUrl = dead.baseUrl;
  await dead.close();
  const dir = tempDir();
  await assert.rejects(ensureDataset('metatool', options(dir, { baseUrl: deadUrl })), (error: unknown) => {
    assert.ok(error instanceof InputError);
    const pattern = new RegExp(
      `^MetaTool data not found in ${escape(dir)} and could not be downloaded \\(.*ECONNREFUSED.*\\): ` +
        'download it with network access, or point --data-dir / ASSAY_DATA_DIR at a folder containing metatool/$',
    );
    assert.match(error.message, pattern);
    return true;
  });
  assert.deepEqual(readdirSync(path.join(dir, 'metatool')), [], 'the part file of the failed download is removed');
});

test('with downloads disabled, missing data is the same InputError and nothing is requested', { skip }, async () => {
  const dir = tempDir();
  const before = server.requests.length;
  await assert.rejects(
    ensureDataset('metatool', options(dir, { allowDownload: false })),
    new RegExp(`^InputError: MetaTool data not found in ${escape(dir)} and could not be downloaded \\(downloads are disabled; 20 file\\(s\\) missing or damaged, e\\.g\\. metatool/LICENSE\\): download it with network access`),
  );
  assert.equal(server.requests.length, before);
  // A complete folder needs no download, allowed or not.
  const result = await ensureDataset('metatool', options(downloadedDir, { allowDownload: false }));
  assert.equal(result.verified.length, 20);
});

test('redirects are followed, and a redirect loop stops after 5', { skip }, async () => {
  const elders = METATOOL_MANIFEST.files.find((f) => f.path === 'metatool/scenario/elders.json');
  assert.ok(elders);
  const tiny: DatasetManifest = { ...METATOOL_MANIFEST, files: [elders], derived: [] };
  const dir = tempDir();
  const result = await ensureDataset('metatool', options(dir, { manifest: tiny, baseUrl: `${server.origin}/moved/` }));
  assert.deepEqual(result.downloaded, ['metatool/scenario/elders.json']);
  assert.equal(sha(readFileSync(path.join(dir, 'metatool/scenario/elders.json'))), expectedSha.get('metatool/scenario/elders.json'));

  const before = server.requests.length;
  await assert.rejects(ensureDataset('metatool', options(tempDir(), { manifest: tiny, baseUrl: `${server.origin}/loop/` })), /more than 5 redirects/);
  assert.equal(server.requests.length - before, 6, 'the first request and 5 redirects, no retry');
});

test('fetchImpl replaces the HTTP client', { skip }, async () => {
  const elders = METATOOL_MANIFEST.files.find((f) => f.path === 'metatool/scenario/elders.json');
  assert.ok(elders);
  const content = readFileSync(sharedMetatoolFile('scenario/elders.json'));
  const asked: string[] = [];
  const fetchImpl: HttpGet = async (url) => {
    asked.push(url);
    return { statusCode: 200, headers: {}, body: (async function* () { yield content; })(), discard: async () => undefined };
  };
  const dir = tempDir();
  const progress: DownloadProgress[] = [];
  const result = await ensureDataset('metatool', {
    dataDir: dir,
    manifest: { ...METATOOL_MANIFEST, files: [elders], derived: [] },
    fetchImpl,
    onProgress: (p) => progress.push(p),
  });
  assert.deepEqual(result.downloaded, ['metatool/scenario/elders.json']);
  assert.deepEqual(asked, [`${METATOOL_MANIFEST.baseUrl}scenario/elders.json`], 'the manifest URL by default');
  // No Content-Length: the size comes from the manifest.
  assert.deepEqual(progress, [{ path: 'metatool/scenario/elders.json', url: asked[0], receivedBytes: content.length, totalBytes: content.length }]);
});

test('an unpinned source is checked by structure, warned about, and its checksum returned', { skip }, async () => {
  const dir = copyWithout('metatool/derived/tool_embedding.json', 'metatool/derived/tool_neighbors_top20.json');
  warnings.length = 0;
  const result = await ensureDataset('metatool', options(dir, { manifest: METATOOL_MANIFEST }));
  assert.deepEqual(result.downloaded, []);
  assert.deepEqual(result.derived, ['metatool/derived/tool_embedding.json', 'metatool/derived/tool_neighbors_top20.json']);
  assert.deepEqual(result.sources, [{ url: `${server.baseUrl}tool_embedding.pkl`, sha256: sha(fixturePkl), bytes: fixturePkl.length, pinned: false }]);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0] as string, new RegExp(`tool_embedding\\.pkl is not pinned by checksum \\(downloaded sha256 ${sha(fixturePkl)}`));
  for (const file of ['metatool/derived/tool_embedding.json', 'metatool/derived/tool_neighbors_top20.json']) {
    assert.equal(sha(readFileSync(path.join(dir, file))), expectedSha.get(file), file);
  }
  assert.deepEqual(readdirSync(path.join(dir, 'metatool/derived')).sort(), ['tool_embedding.json', 'tool_neighbors_top20.json'], 'the pkl is not kept');
});

test('a source with the wrong structure or content writes no derived file', { skip }, async () => {
  const dir = copyWithout('metatool/derived/tool_embedding.json', 'metatool/derived/tool_neighbors_top20.json');
  const unpinned = { ...options(dir), manifest: METATOOL_MANIFEST };
  try {
    server.overrides.set('/dataset/tool_embedding.pkl', pickleRecords(records.slice(1), { protocol: 2 }));
    await assert.rejects(ensureDataset('metatool', unpinned), /tool_embedding\.pkl: expected 201 embeddings, found 200/);
    // Right shape, different numbers (first vector flipped, still unit length): the pinned outputs catch it.
    const flipped = records.map((r, i) => (i === 0 ? { tool: r.tool, embedding: r.embedding.map((x) => -x) } : r));
    server.overrides.set('/dataset/tool_embedding.pkl', pickleRecords(flipped, { protocol: 2 }));
    await assert.rejects(ensureDataset('metatool', unpinned), /metatool\/derived\/tool_embedding\.json derived from .* does not match its pinned checksum/);
  } finally {
    server.overrides.set('/dataset/tool_embedding.pkl', fixturePkl);
  }
  assert.deepEqual(readdirSync(path.join(dir, 'metatool/derived')), []);
});

test('verifyDataset reports missing and mismatched files', { skip }, async () => {
  const shared = await verifyDataset('metatool', sharedDir);
  assert.equal(shared.ok, true, 'the shared copy matches the manifest');
  assert.equal(shared.verified.length, 20);

  const dir = copyWithout('metatool/tmp_dataset/Task1.json');
  writeFileSync(path.join(dir, 'metatool/scenario/Students.json'), '[]');
  const report = await verifyDataset('metatool', dir);
  assert.equal(report.ok, false);
  assert.deepEqual(report.missing, ['metatool/tmp_dataset/Task1.json']);
  assert.deepEqual(report.mismatched, [
    {
      path: 'metatool/scenario/Students.json',
      expectedSha256: expectedSha.get('metatool/scenario/Students.json'),
      actualSha256: sha('[]'),
      expectedBytes: statSync(sharedMetatoolFile('scenario/Students.json')).size,
      actualBytes: 2,
    },
  ]);
  assert.equal(report.verified.length, 18);
  assert.match(formatVerifyReport(report), /18 file\(s\) verified, 1 missing, 1 mismatched\n {2}missing {4}metatool\/tmp_dataset\/Task1\.json\n {2}mismatched metatool\/scenario\/Students\.json/);
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
