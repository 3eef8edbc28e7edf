import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/**
 * Test support: a loopback HTTP server laid out like the MetaTool repository at a commit —
 * `/dataset/<file>` and `/LICENSE` — serving the shared read-only copy. Tests change its
 * behaviour through the public maps: replace a file's bytes, fail the first N requests with 500,
 * or redirect (`/moved/<x>` → `/dataset/<x>`, `/loop/<x>` → itself).
 */
export class MetatoolFileServer {
  /** Raw request paths (still percent-encoded), in arrival order. */
  readonly requests: string[] = [];
  /** Decoded path → bytes served instead of the shared file (also adds files, e.g. the pkl). */
  readonly overrides = new Map<string, Buffer>();
  /** Decoded path → how many more requests get a 500 before it is served normally. */
  readonly failures = new Map<string, number>();

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  /** Starts on an ephemeral port of 127.0.0.1. */
  static async start(metatoolDir: string): Promise<MetatoolFileServer> {
    let instance: MetatoolFileServer | undefined;
    const server = createServer((req, res) => instance?.handle(metatoolDir, req.url ?? '/', res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    instance = new MetatoolFileServer(server, `http://127.0.0.1:${port}`);
    return instance;
  }

  /** Base URL to give `ensureDataset` (the repository's `dataset/` folder). */
  get baseUrl(): string {
    return `${this.origin}/dataset/`;
  }

  /** How many requests asked for this decoded path. */
  count(decodedPath: string): number {
    return this.requests.filter((r) => decodeURIComponent(r) === decodedPath).length;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) => this.server.close((e) => (e ? reject(e) : resolve())));
  }

  private handle(metatoolDir: string, rawUrl: string, res: import('node:http').ServerResponse): void {
    this.requests.push(rawUrl);
    const decoded = decodeURIComponent(rawUrl.split('?')[0] ?? '/');
    if (decoded.startsWith('/moved/')) {
      res.writeHead(302, { location: `/dataset/${rawUrl.slice('/moved/'.length)}` }).end();
      return;
    }
    if (decoded.startsWith('/loop/')) {
      res.writeHead(302, { location: rawUrl }).end();
      return;
    }
    const failuresLeft = this.failures.get(decoded) ?? 0;
    if (failuresLeft > 0) {
      this.failures.set(decoded, failuresLeft - 1);
      res.writeHead(500, { 'content-type': 'text/plain' }).end('try again');
      return;
    }
    const override = this.overrides.get(decoded);
    if (override) {
      res.writeHead(200, { 'content-length': String(override.length) }).end(override);
      return;
    }
    const file = decoded === '/LICENSE' ? 'LICENSE' : decoded.startsWith('/dataset/') ? decoded.slice('/dataset/'.length) : undefined;
    // derived/ is assay's, not upstream's: never served.
    const full = file && !file.startsWith('derived/') && !file.includes('..') ? path.join(metatoolDir, ...file.split('/')) : undefined;
    let size: number | undefined;
    try {
      size = full && statSync(full).isFile() ? statSync(full).size : undefined;
    } catch {
      size = undefined;
    }
    if (!full || size === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-length': String(size) });
    createReadStream(full).pipe(res);
  }
}
