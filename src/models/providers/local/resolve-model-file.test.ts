import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { InputError } from '../../../core/index.js';
import { MetatoolFileServer } from '../../../datasets/fetch/test-support/file-server.js';
import { buildTinyGguf } from '../../../testing/tiny-gguf.js';
import { parseLocalModelRef } from './model-ref.js';
import { resolveModelFile, type ModelDownloadProgress } from './resolve-model-file.js';

// The dataset tests' loopback file server, serving a generated model where the hub would.
const model = buildTinyGguf().bytes;
const sha = createHash('sha256').update(model).digest('hex');
const hubPath = '/tiny/models/resolve/main/tiny.gguf';
let server: MetatoolFileServer;
const temps: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(path.join(tmpdir(), 'assay-model-cache-'));
  temps.push(dir);
  return dir;
};

before(async () => {
  server = await MetatoolFileServer.start(tempDir());
  server.overrides.set(hubPath, model);
});
after(async () => {
  await server.close();
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

test('local:hf: downloads once into the cache with progress and the sha256 checked, then serves the cache', async () => {
  const cacheDir = tempDir();
  const progress: ModelDownloadProgress[] = [];
  const ref = parseLocalModelRef(`hf:tiny/models/tiny.gguf#sha256=${sha}`);
  const first = await resolveModelFile(ref, { cacheDir, endpoint: server.origin, onProgress: (p) => progress.push(p) });
  assert.equal(first.downloaded, true);
  assert.equal(first.sha256, sha);
  assert.equal(first.path, path.join(cacheDir, 'hf', 'tiny', 'models', 'main', 'tiny.gguf'));
  assert.ok(readFileSync(first.path).equals(model));
  assert.ok(!existsSync(`${first.path}.part`));
  assert.match(readFileSync(`${first.path}.sha256`, 'utf8'), new RegExp(`^${sha}  tiny.gguf`));
  assert.ok(progress.length > 0);
  assert.deepEqual(progress.at(-1), { url: `${server.origin}${hubPath}`, receivedBytes: model.length, totalBytes: model.length });

  const again = await resolveModelFile(ref, { cacheDir, endpoint: server.origin });
  assert.deepEqual(again, { path: first.path, downloaded: false });
  assert.equal(server.count(hubPath), 1, 'the second resolve did not download');
});

test('local:hf: retries a 500, and a wrong pinned sha256 leaves nothing in the cache', async () => {
  server.failures.set(hubPath, 1);
  const cacheDir = tempDir();
  const ok = await resolveModelFile(parseLocalModelRef('hf:tiny/models/tiny.gguf'), { cacheDir, endpoint: server.origin, retryDelayMs: 1 });
  assert.equal(ok.downloaded, true);

  const badDir = tempDir();
  const wrong = parseLocalModelRef(`hf:tiny/models/tiny.gguf#sha256=${'0'.repeat(64)}`);
  await assert.rejects(resolveModelFile(wrong, { cacheDir: badDir, endpoint: server.origin }), (e: unknown) => e instanceof InputError && /checksum mismatch.*expected sha256 0{64}, got [0-9a-f]{64}/.test(e.message));
  assert.ok(!existsSync(path.join(badDir, 'hf', 'tiny', 'models', 'main', 'tiny.gguf')));
  assert.ok(!existsSync(path.join(badDir, 'hf', 'tiny', 'models', 'main', 'tiny.gguf.part')));
});

test('local:hf: an unreachable hub or a disabled download says how to work offline', async () => {
  const ref = parseLocalModelRef('hf:tiny/models/missing.gguf');
  await assert.rejects(resolveModelFile(ref, { cacheDir: tempDir(), endpoint: server.origin }), (e: unknown) => e instanceof InputError && /HTTP 404.*copy the \.gguf file over and use local:<path>/.test(e.message));
  await assert.rejects(resolveModelFile(ref, { cacheDir: tempDir(), allowDownload: false }), (e: unknown) => e instanceof InputError && /not in the cache .*downloads are disabled/.test(e.message));
});

test('local:<path>: a missing file is an InputError naming the resolved path', async () => {
  await assert.rejects(resolveModelFile({ kind: 'file', path: 'no/such/model.gguf' }), (e: unknown) => e instanceof InputError && e.message.includes(path.resolve('no/such/model.gguf')) && e.message.includes('"no/such/model.gguf"'));
});
