import { createHash } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InputError } from '../../core/errors.js';
import { requireFolder } from '../../core/create-folder.js';
import { visibleControls } from '../../core/terminal-text.js';
import { checkEmbeddings, embeddingsFromPickle, nearestNeighbors, serializeEmbeddings, serializeNeighbors } from './derive-embeddings.js';
import { hashFile } from './file-hash.js';
import { DownloadError, downloadToFile, type HttpGet } from '../../net/http-get.js';
import { remoteUrl, type DatasetManifest, type DerivedGroup, type DerivedOutput, type PinnedFile } from './manifest.js';
import { getManifest } from './manifests.js';
import { unpickle } from './pickle.js';

export interface DownloadProgress {
  /** Data-dir path being written (for a derived source, the source's remote path). */
  readonly path: string;
  readonly url: string;
  readonly receivedBytes: number;
  /** From the manifest when pinned, else from Content-Length; null when unknown. */
  readonly totalBytes: number | null;
}

export interface EnsureDatasetOptions {
  readonly dataDir: string;
  /** When false, a missing or damaged file is an error instead of a download. Default true. */
  readonly allowDownload?: boolean;
  /** Replaces the manifest's `baseUrl` (a mirror, or a test server). */
  readonly baseUrl?: string;
  /** Replaces undici as the HTTP client. */
  readonly fetchImpl?: HttpGet;
  /** Replaces the built-in manifest for `name` (tests, mirrors with other checksums). */
  readonly manifest?: DatasetManifest;
  readonly onProgress?: (progress: DownloadProgress) => void;
  /** Non-fatal notices (an unpinned source, a retry). Default: one line on stderr. */
  readonly onWarning?: (message: string) => void;
  /** Tries per file, the first included. Default 3. */
  readonly attempts?: number;
  /** Backoff before the second try, doubling after. Default 500 ms. */
  readonly retryDelayMs?: number;
  readonly signal?: AbortSignal;
}

/** A derived source that was downloaded: its checksum is recorded because it may not be pinned. */
export interface FetchedSource {
  readonly url: string;
  readonly sha256: string;
  readonly bytes: number;
  readonly pinned: boolean;
}

export interface EnsureDatasetResult {
  /** Data-dir paths of the upstream files downloaded by this call (each checked against its sha256). */
  readonly downloaded: string[];
  /** Data-dir paths that were already present with the right sha256 and left alone. */
  readonly verified: string[];
  /** Data-dir paths of derived files written by this call (each matching its pinned sha256). */
  readonly derived: string[];
  /** Sources downloaded to derive files from, with the checksum actually received. */
  readonly sources: FetchedSource[];
}

/**
 * Makes sure `dataDir` holds the dataset: every pinned file present with the right sha256 and
 * every derived file made. Missing or damaged files are downloaded (to `<file>.part`, checked,
 * then renamed, so a file with its final name is always complete and verified). Throws
 * `InputError` on a checksum mismatch, and when the data is missing and cannot be downloaded.
 */
export async function ensureDataset(name: string, options: EnsureDatasetOptions): Promise<EnsureDatasetResult> {
  const manifest = options.manifest ?? getManifest(name);
  const { dataDir } = options;
  const result: EnsureDatasetResult = { downloaded: [], verified: [], derived: [], sources: [] };

  const filesToFetch: PinnedFile[] = [];
  for (const file of manifest.files) {
    if (await matches(dataDir, file)) result.verified.push(file.path);
    else filesToFetch.push(file);
  }
  const groupsToDerive: Array<{ group: DerivedGroup; outputs: DerivedOutput[] }> = [];
  for (const group of manifest.derived) {
    const outputs: DerivedOutput[] = [];
    for (const output of [group.outputs.embeddings, group.outputs.neighbors]) {
      if (await matches(dataDir, output)) result.verified.push(output.path);
      else outputs.push(output);
    }
    if (outputs.length > 0) groupsToDerive.push({ group, outputs });
  }
  if (filesToFetch.length === 0 && groupsToDerive.length === 0) return result;

  if (options.allowDownload === false) {
    const absent = [...filesToFetch.map((f) => f.path), ...groupsToDerive.flatMap((g) => g.outputs.map((o) => o.path))];
    throw notAvailable(manifest, dataDir, `downloads are disabled; ${absent.length} file(s) missing or damaged, e.g. ${absent[0]}`);
  }

  const baseUrl = options.baseUrl ?? manifest.baseUrl;
  const warn = options.onWarning ?? ((message: string) => process.stderr.write(visibleControls(`warning: ${message}\n`, { keepLayout: true })));
  const fetchTo = async (url: string, part: string, progressPath: string, total: number | null) => {
    requireFolder(path.dirname(part), 'download folder');
    try {
      return await downloadToFile(url, part, {
        ...(options.fetchImpl ? { http: options.fetchImpl } : {}),
        ...(options.attempts !== undefined ? { attempts: options.attempts } : {}),
        ...(options.retryDelayMs !== undefined ? { retryDelayMs: options.retryDelayMs } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        onBytes: (received, contentLength) =>
          options.onProgress?.({ path: progressPath, url, receivedBytes: received, totalBytes: total ?? contentLength }),
        onRetry: (attempt, error) => warn(`retrying ${url} (attempt ${attempt}): ${error.message}`),
      });
    } catch (error) {
      await rm(part, { force: true });
      if (error instanceof DownloadError) throw notAvailable(manifest, dataDir, error.message);
      throw error;
    }
  };

  for (const file of filesToFetch) {
    const url = remoteUrl(baseUrl, file.remote);
    const target = inDataDir(dataDir, file.path);
    const part = `${target}.part`;
    const got = await fetchTo(url, part, file.path, file.bytes);
    if (got.sha256 !== file.sha256) {
      await rm(part, { force: true });
      throw new InputError(`checksum mismatch for ${url}: expected ${file.sha256}, got ${got.sha256}`, { file: url });
    }
    await rename(part, target);
    result.downloaded.push(file.path);
  }

  for (const { group, outputs } of groupsToDerive) {
    const url = remoteUrl(baseUrl, group.source.remote);
    // The source is not part of the data dir's layout: fetched beside the outputs, removed after use.
    const part = path.join(path.dirname(inDataDir(dataDir, group.outputs.embeddings.path)), `${path.posix.basename(group.source.remote)}.part`);
    let fetched: FetchedSource;
    let bytes: Buffer;
    try {
      const got = await fetchTo(url, part, group.source.remote, group.source.bytes);
      if (group.source.sha256 !== null && got.sha256 !== group.source.sha256) {
        throw new InputError(`checksum mismatch for ${url}: expected ${group.source.sha256}, got ${got.sha256}`, { file: url });
      }
      fetched = { url, sha256: got.sha256, bytes: got.bytes, pinned: group.source.sha256 !== null };
      bytes = await readFile(part);
    } finally {
      await rm(part, { force: true });
    }
    result.sources.push(fetched);
    result.derived.push(...(await deriveGroup(dataDir, group, outputs, bytes, url)));
    if (!fetched.pinned) {
      warn(
        `${url} is not pinned by checksum (downloaded sha256 ${fetched.sha256}, ${fetched.bytes} bytes); ` +
          `its structure was checked and the files derived from it match their pinned checksums`,
      );
    }
  }
  return result;
}

/** Converts a downloaded source and writes the requested outputs, each checked against its pin. */
async function deriveGroup(dataDir: string, group: DerivedGroup, outputs: readonly DerivedOutput[], source: Buffer, url: string): Promise<string[]> {
  if (group.converter !== 'metatool-embeddings') throw new Error(`unknown converter ${String(group.converter)}`);
  const records = embeddingsFromPickle(unpickle(source, { source: url }), url);
  const toolsPath = inDataDir(dataDir, group.toolsFile);
  const tools = Object.keys(parseJsonObject(await readFile(toolsPath, 'utf8'), toolsPath));
  checkEmbeddings(records, { entries: group.expect.entries, dimensions: group.expect.dimensions, requiredTools: tools }, url);
  const contents = new Map<string, string>([
    [group.outputs.embeddings.path, serializeEmbeddings(records)],
    [group.outputs.neighbors.path, serializeNeighbors(nearestNeighbors(records, new Set(tools), group.neighbors))],
  ]);
  const written: string[] = [];
  for (const output of outputs) {
    const text = contents.get(output.path) as string;
    const sha = createHash('sha256').update(text).digest('hex');
    if (sha !== output.sha256) {
      throw new InputError(
        `${output.path} derived from ${url} does not match its pinned checksum: expected ${output.sha256}, got ${sha}`,
        { file: output.path },
      );
    }
    const target = inDataDir(dataDir, output.path);
    requireFolder(path.dirname(target), 'data folder');
    await writeFile(`${target}.part`, text);
    await rename(`${target}.part`, target);
    written.push(output.path);
  }
  return written;
}

export interface MismatchedFile {
  readonly path: string;
  readonly expectedSha256: string;
  readonly actualSha256: string;
  readonly expectedBytes: number;
  readonly actualBytes: number;
}

export interface VerifyReport {
  readonly dataset: string;
  readonly dataDir: string;
  readonly ok: boolean;
  readonly verified: string[];
  readonly missing: string[];
  readonly mismatched: MismatchedFile[];
}

/** Checks every pinned file of a dataset (upstream copies and derived files) in `dataDir`; never downloads. */
export async function verifyDataset(name: string, dataDir: string, options: { readonly manifest?: DatasetManifest } = {}): Promise<VerifyReport> {
  const manifest = options.manifest ?? getManifest(name);
  const pinned = [...manifest.files, ...manifest.derived.flatMap((g) => [g.outputs.embeddings, g.outputs.neighbors])];
  const report = { dataset: manifest.dataset, dataDir, verified: [] as string[], missing: [] as string[], mismatched: [] as MismatchedFile[] };
  for (const file of pinned) {
    const digest = await hashFile(inDataDir(dataDir, file.path));
    if (!digest) report.missing.push(file.path);
    else if (digest.sha256 === file.sha256) report.verified.push(file.path);
    else {
      report.mismatched.push({ path: file.path, expectedSha256: file.sha256, actualSha256: digest.sha256, expectedBytes: file.bytes, actualBytes: digest.bytes });
    }
  }
  return { ...report, ok: report.missing.length === 0 && report.mismatched.length === 0 };
}

/** A few lines for `assay data verify`. */
export function formatVerifyReport(report: VerifyReport): string {
  const lines = [`${report.dataset} in ${report.dataDir}: ${report.verified.length} file(s) verified, ${report.missing.length} missing, ${report.mismatched.length} mismatched`];
  for (const file of report.missing) lines.push(`  missing    ${file}`);
  for (const m of report.mismatched) lines.push(`  mismatched ${m.path}: expected sha256 ${m.expectedSha256} (${m.expectedBytes} bytes), found ${m.actualSha256} (${m.actualBytes} bytes)`);
  return lines.join('\n');
}

async function matches(dataDir: string, file: { readonly path: string; readonly sha256: string; readonly bytes: number }): Promise<boolean> {
  const digest = await hashFile(inDataDir(dataDir, file.path));
  return digest !== undefined && digest.bytes === file.bytes && digest.sha256 === file.sha256;
}

/** Manifest paths use `/`; this maps them into the data dir on any platform. */
function inDataDir(dataDir: string, manifestPath: string): string {
  return path.join(dataDir, ...manifestPath.split('/'));
}

function parseJsonObject(text: string, file: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputError(`${file}: not valid JSON (${(error as Error).message})`, { file });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new InputError(`${file}: expected a JSON object of tool → description`, { file });
  return value as Record<string, unknown>;
}

function notAvailable(manifest: DatasetManifest, dataDir: string, reason: string): InputError {
  return new InputError(
    `${manifest.title} data not found in ${dataDir} and could not be downloaded (${reason}): ` +
      `download it with network access, or point --data-dir / ASSAY_DATA_DIR at a folder containing ${manifest.folder}/`,
    { file: dataDir },
  );
}
