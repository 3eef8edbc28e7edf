import { rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InputError, requireFolder } from '../../../core/index.js';
import { DownloadError, downloadToFile, type HttpGet } from '../../../net/http-get.js';
import { defaultModelCacheDir, hfCachePath, hfDownloadUrl, type LocalModelRef } from './model-ref.js';

export interface ModelDownloadProgress {
  readonly url: string;
  readonly receivedBytes: number;
  readonly totalBytes: number | null;
}

export interface ResolveModelFileOptions {
  /** Where hub downloads are kept (default: `defaultModelCacheDir()`). */
  readonly cacheDir?: string;
  /** Hub address (default: env `HF_ENDPOINT`, else https://huggingface.co). */
  readonly endpoint?: string;
  /** When false, a model that is not in the cache is an error instead of a download. Default true. */
  readonly allowDownload?: boolean;
  readonly http?: HttpGet;
  readonly onProgress?: (progress: ModelDownloadProgress) => void;
  /** Tries per download, the first included (default 3). */
  readonly attempts?: number;
  readonly retryDelayMs?: number;
  readonly signal?: AbortSignal;
}

export interface ResolvedModelFile {
  readonly path: string;
  /** True when this call downloaded the file. */
  readonly downloaded: boolean;
  /** sha256 of the downloaded bytes (only when `downloaded`). */
  readonly sha256?: string;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/**
 * The `.gguf` file behind a `local:` reference. A path must exist (the error names it, resolved);
 * a hub file is served from the cache, or downloaded once through the datasets' downloader
 * (redirects, retries, progress) to `<file>.part`, checked against the pinned sha256 when the id
 * has one, then renamed — so a cached file with its final name is always complete.
 */
export async function resolveModelFile(ref: LocalModelRef, options: ResolveModelFileOptions = {}): Promise<ResolvedModelFile> {
  if (ref.kind === 'file') {
    const absolute = path.resolve(ref.path);
    if (!(await isFile(absolute))) {
      throw new InputError(
        `local model file not found: ${absolute}` + (absolute !== ref.path ? ` (from "${ref.path}")` : '') + '; give the path of a .gguf file, e.g. local:./models/model.gguf (no model at hand? baseline:lexical and replay:<file.jsonl> need none)',
        { file: absolute },
      );
    }
    return { path: absolute, downloaded: false };
  }
  const cacheDir = options.cacheDir ?? defaultModelCacheDir();
  const target = hfCachePath(ref, cacheDir);
  if (await isFile(target)) return { path: target, downloaded: false };
  const url = hfDownloadUrl(ref, options.endpoint);
  const name = `hf:${ref.owner}/${ref.repo}/${ref.file}`;
  if (options.allowDownload === false) {
    throw new InputError(`local model ${name} is not in the cache (${target}) and downloads are disabled; copy the .gguf there or use local:<path>`, { file: target });
  }
  requireFolder(path.dirname(target), 'model cache folder');
  const part = `${target}.part`;
  let got;
  try {
    got = await downloadToFile(url, part, {
      ...(options.http ? { http: options.http } : {}),
      ...(options.attempts !== undefined ? { attempts: options.attempts } : {}),
      ...(options.retryDelayMs !== undefined ? { retryDelayMs: options.retryDelayMs } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      onBytes: (receivedBytes, totalBytes) => options.onProgress?.({ url, receivedBytes, totalBytes }),
    });
  } catch (error) {
    await rm(part, { force: true });
    if (error instanceof DownloadError) {
      throw new InputError(
        `could not download local model ${name} (${error.message}); on a machine without access to the hub, copy the .gguf file over and use local:<path>, or put it at ${target} (no model at all? baseline:lexical and replay:<file.jsonl> need none)`,
        { file: url },
      );
    }
    throw error;
  }
  if (ref.sha256 !== undefined && got.sha256 !== ref.sha256) {
    await rm(part, { force: true });
    throw new InputError(`checksum mismatch for ${url}: expected sha256 ${ref.sha256}, got ${got.sha256}`, { file: url });
  }
  await rename(part, target);
  // Recorded beside the model so that a later run can tell what it used (never trusted as a pin).
  await writeFile(`${target}.sha256`, `${got.sha256}  ${path.basename(target)}\n`);
  return { path: target, downloaded: true, sha256: got.sha256 };
}
