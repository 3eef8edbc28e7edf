import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';

/** The little of an HTTP response the downloader needs; lets tests and callers swap the client. */
export interface HttpResponse {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: AsyncIterable<Uint8Array>;
  /** Reads and drops the rest of the body so the connection can be reused. */
  discard(): Promise<void>;
}

/** A GET that does not follow redirects (the downloader follows them itself, counting). */
export type HttpGet = (url: string, init: { readonly signal?: AbortSignal }) => Promise<HttpResponse>;

/** The default client: undici's `request`, with timeouts so a stalled server cannot hang a run. */
export const undiciGet: HttpGet = async (url, init) => {
  const response = await request(url, {
    method: 'GET',
    headers: { 'user-agent': 'assay (dataset download)' },
    headersTimeout: 30_000,
    bodyTimeout: 60_000,
    ...(init.signal ? { signal: init.signal } : {}),
  });
  return {
    statusCode: response.statusCode,
    headers: response.headers,
    body: response.body,
    discard: async () => {
      await response.body.dump();
    },
  };
};

/** Why a download failed; `retryable` for network errors and 5xx/429 answers. */
export class DownloadError extends Error {
  override readonly name = 'DownloadError';
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface DownloadOptions {
  readonly http?: HttpGet;
  /** Total tries per file, the first included. */
  readonly attempts?: number;
  /** Wait before the second try; doubles after each failure. */
  readonly retryDelayMs?: number;
  readonly maxRedirects?: number;
  readonly signal?: AbortSignal;
  /** Called as bytes arrive; `total` from Content-Length when the server sent it. */
  readonly onBytes?: (received: number, total: number | null) => void;
  /** Called before each retry, e.g. to log it. */
  readonly onRetry?: (attempt: number, error: Error) => void;
}

export interface DownloadResult {
  readonly sha256: string;
  readonly bytes: number;
  /** The URL the bytes finally came from (after redirects). */
  readonly finalUrl: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Streams `url` into `destination` (overwritten on every attempt), hashing as it goes. Follows
 * redirects (at most `maxRedirects`), retries network errors and 5xx/429 with exponential backoff.
 * Throws `DownloadError` when every attempt failed or the answer was a non-retryable status.
 */
export async function downloadToFile(url: string, destination: string, options: DownloadOptions = {}): Promise<DownloadResult> {
  const attempts = options.attempts ?? 3;
  const baseDelay = options.retryDelayMs ?? 500;
  let lastError: Error = new DownloadError(`no attempt made for ${url}`, false);
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (attempt > 1) {
      options.onRetry?.(attempt, lastError);
      await sleep(baseDelay * 2 ** (attempt - 2), undefined, options.signal ? { signal: options.signal } : {});
    }
    try {
      return await downloadOnce(url, destination, options);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      if (error instanceof LocalFileError) throw error.original;
      const download = asDownloadError(error, url);
      if (!download.retryable) throw download;
      lastError = download;
    }
  }
  throw lastError;
}

async function downloadOnce(url: string, destination: string, options: DownloadOptions): Promise<DownloadResult> {
  const http = options.http ?? undiciGet;
  const maxRedirects = options.maxRedirects ?? 5;
  let current = url;
  for (let redirects = 0; ; redirects++) {
    const response = await http(current, options.signal ? { signal: options.signal } : {});
    if (REDIRECTS.has(response.statusCode)) {
      await response.discard();
      const location = header(response, 'location');
      if (!location) throw new DownloadError(`HTTP ${response.statusCode} without a Location header for ${current}`, false, response.statusCode);
      if (redirects >= maxRedirects) throw new DownloadError(`more than ${maxRedirects} redirects for ${url}`, false, response.statusCode);
      current = new URL(location, current).toString();
      continue;
    }
    if (response.statusCode < 200 || response.statusCode >= 300) {
      await response.discard().catch(() => undefined);
      const retryable = response.statusCode >= 500 || response.statusCode === 429;
      throw new DownloadError(`HTTP ${response.statusCode} for ${current}`, retryable, response.statusCode);
    }
    return { ...(await save(response, destination, options)), finalUrl: current };
  }
}

/** Writes the body to `destination`, hashing and counting bytes on the way. */
async function save(response: HttpResponse, destination: string, options: DownloadOptions): Promise<{ sha256: string; bytes: number }> {
  const lengthHeader = header(response, 'content-length');
  const total = lengthHeader !== undefined && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : null;
  // A local problem (no permission, read-only disk) is not a network problem: no retry.
  let handle;
  try {
    handle = await open(destination, 'w');
  } catch (error) {
    await response.discard().catch(() => undefined);
    throw new LocalFileError(error);
  }
  const hash = createHash('sha256');
  let received = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      received += chunk.length;
      options.onBytes?.(received, total);
      done(null, chunk);
    },
  });
  await pipeline(response.body, tap, createWriteStream('', { fd: handle }));
  return { sha256: hash.digest('hex'), bytes: received };
}

/** Carries a file-system error past the retry loop unchanged. */
class LocalFileError extends Error {
  constructor(readonly original: unknown) {
    super('local file error');
  }
}

function header(response: HttpResponse, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function asDownloadError(error: unknown, url: string): DownloadError {
  if (error instanceof DownloadError) return error;
  const cause = error instanceof Error ? describeNetworkError(error) : String(error);
  return new DownloadError(`${cause} for ${url}`, true);
}

/** undici wraps the useful part (ECONNREFUSED 127.0.0.1:1234) in `cause`. */
function describeNetworkError(error: Error): string {
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error && cause.message && cause.message !== error.message) return `${error.message}: ${cause.message}`;
  return error.message;
}
