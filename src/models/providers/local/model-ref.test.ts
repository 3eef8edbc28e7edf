import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { InputError } from '../../../core/index.js';
import { defaultModelCacheDir, hfCachePath, hfDownloadUrl, parseLocalModelRef } from './model-ref.js';

test('local model refs: a path is kept as written; hf refs are split, with revision and sha256 pin', () => {
  assert.deepEqual(parseLocalModelRef('./models/a b.gguf'), { kind: 'file', path: './models/a b.gguf' });
  assert.deepEqual(parseLocalModelRef('hf:Qwen/Qwen2.5-0.5B-Instruct-GGUF/qwen2.5-0.5b-instruct-q4_k_m.gguf'), {
    kind: 'hf',
    owner: 'Qwen',
    repo: 'Qwen2.5-0.5B-Instruct-GGUF',
    file: 'qwen2.5-0.5b-instruct-q4_k_m.gguf',
    revision: 'main',
  });
  const sha = 'AB'.repeat(32);
  assert.deepEqual(parseLocalModelRef(`hf:o/r@v1.0/sub/m.gguf#sha256=${sha}`), { kind: 'hf', owner: 'o', repo: 'r', file: 'sub/m.gguf', revision: 'v1.0', sha256: sha.toLowerCase() });
});

test('local model refs: malformed hf refs are InputErrors that say what was expected', () => {
  for (const bad of ['hf:owner/file.gguf', 'hf:o/r/m.bin', 'hf:o/../m.gguf', 'hf:o//m.gguf', 'hf:o/r/m.gguf#md5=00', '']) {
    assert.throws(() => parseLocalModelRef(bad), (e: unknown) => e instanceof InputError && /local:/.test(e.message), bad);
  }
});

test('local model refs: download URL and cache path', () => {
  const ref = parseLocalModelRef('hf:o/r@dev/sub/m x.gguf'.replace(' ', '_'));
  assert.ok(ref.kind === 'hf');
  assert.equal(hfDownloadUrl(ref, 'http://127.0.0.1:9/'), 'http://127.0.0.1:9/o/r/resolve/dev/sub/m_x.gguf');
  assert.equal(hfDownloadUrl(ref, 'https://mirror.example/hub'), 'https://mirror.example/hub/o/r/resolve/dev/sub/m_x.gguf');
  assert.equal(hfCachePath(ref, '/c'), path.join('/c', 'hf', 'o', 'r', 'dev', 'sub', 'm_x.gguf'));
  assert.equal(defaultModelCacheDir({ ASSAY_MODEL_DIR: '/m' }), path.resolve('/m'));
  assert.equal(defaultModelCacheDir({ XDG_CACHE_HOME: '/x' }), path.join('/x', 'assay', 'models'));
});
