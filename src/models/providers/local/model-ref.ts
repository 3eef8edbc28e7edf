import { homedir } from 'node:os';
import path from 'node:path';
import { InputError } from '../../../core/index.js';

/** What follows `local:` in a model id: a file on disk, or a file of a Hugging Face repository. */
export type LocalModelRef =
  | { readonly kind: 'file'; readonly path: string }
  | {
      readonly kind: 'hf';
      readonly owner: string;
      readonly repo: string;
      /** Path inside the repository (may contain folders), ending in `.gguf`. */
      readonly file: string;
      /** Branch, tag or commit (default `main`), from `owner/repo@rev/file.gguf`. */
      readonly revision: string;
      /** Expected sha256 of the download, from a `#sha256=<hex>` suffix; checked before the file is used. */
      readonly sha256?: string;
    };

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Parses `local:<path.gguf>` and `local:hf:<owner>/<repo>[@revision]/<file.gguf>[#sha256=<hex>]`. Paths are kept
 * as written (resolved against the working directory when loaded); hf references are checked
 * strictly because they become a URL and a cache path.
 */
export function parseLocalModelRef(model: string): LocalModelRef {
  if (!model.startsWith('hf:')) {
    if (model.trim() === '') throw new InputError('local: needs a path to a .gguf file, e.g. local:./models/model.gguf');
    return { kind: 'file', path: model };
  }
  const hash = model.indexOf('#');
  const rest = model.slice('hf:'.length, hash === -1 ? undefined : hash);
  const fragment = hash === -1 ? undefined : model.slice(hash + 1);
  const parts = rest.split('/');
  const usage = `expected local:hf:<owner>/<repo>/<file.gguf> (optionally <repo>@<revision>), got local:${model}`;
  if (parts.length < 3) throw new InputError(usage);
  const [owner = '', repoAndRevision = '', ...fileParts] = parts;
  const at = repoAndRevision.indexOf('@');
  const repo = at === -1 ? repoAndRevision : repoAndRevision.slice(0, at);
  const revision = at === -1 ? 'main' : repoAndRevision.slice(at + 1);
  // No `..`, no empty segments: every segment becomes a folder of the cache.
  for (const segment of [owner, repo, revision, ...fileParts]) {
    if (!SEGMENT.test(segment) || segment.includes('..')) throw new InputError(`${usage} ("${segment}" is not a valid name)`);
  }
  const file = fileParts.join('/');
  if (!file.toLowerCase().endsWith('.gguf')) throw new InputError(`${usage} (the file must end in .gguf)`);
  if (fragment === undefined) return { kind: 'hf', owner, repo, file, revision };
  const pinned = /^sha256=([0-9a-fA-F]{64})$/.exec(fragment);
  if (!pinned) throw new InputError(`${usage} (after "#" only sha256=<64 hex digits> is understood, got "#${fragment}")`);
  return { kind: 'hf', owner, repo, file, revision, sha256: (pinned[1] as string).toLowerCase() };
}

/** Default download host; `HF_ENDPOINT` (the Hugging Face tools' variable) points at a mirror. */
export const DEFAULT_HF_ENDPOINT = 'https://huggingface.co';

/** `<endpoint>/<owner>/<repo>/resolve/<revision>/<file>`, the hub's download URL. */
export function hfDownloadUrl(ref: Extract<LocalModelRef, { kind: 'hf' }>, endpoint: string = process.env['HF_ENDPOINT'] ?? DEFAULT_HF_ENDPOINT): string {
  const base = endpoint.endsWith('/') ? endpoint : `${endpoint}/`;
  const encoded = ref.file.split('/').map(encodeURIComponent).join('/');
  return new URL(`${ref.owner}/${ref.repo}/resolve/${encodeURIComponent(ref.revision)}/${encoded}`, base).toString();
}

/** `ASSAY_MODEL_DIR`, else `$XDG_CACHE_HOME/assay/models`, else `~/.cache/assay/models`. */
export function defaultModelCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env['ASSAY_MODEL_DIR']) return path.resolve(env['ASSAY_MODEL_DIR']);
  const cache = env['XDG_CACHE_HOME'] ? path.resolve(env['XDG_CACHE_HOME']) : path.join(homedir(), '.cache');
  return path.join(cache, 'assay', 'models');
}

/** Where a hub file lives in the cache: `<cache>/hf/<owner>/<repo>/<revision>/<file>`. */
export function hfCachePath(ref: Extract<LocalModelRef, { kind: 'hf' }>, cacheDir: string): string {
  return path.join(cacheDir, 'hf', ref.owner, ref.repo, ref.revision, ...ref.file.split('/'));
}
