import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Test support: a loopback HTTP server that plays an upstream repository, serving read-only
 * local files under the URL layout a subclass defines (`fileFor`). Tests change its behaviour
 * through the public maps: replace a file's bytes, fail the first N requests with 500, or
 * redirect (`/moved/<x>` → `<movedTo><x>`, `/loop/<x>` → itself).
 */
export abstract class LoopbackFileServer {
  /** Raw request paths (still percent-encoded), in arrival order. */
  readonly requests: string[] = [];
  /** Decoded path → bytes served instead of the local file (also adds files, e.g. MetaTool's pkl). */
  readonly overrides = new Map<string, Buffer>();
  /** Decoded path → how many more requests get a 500 before it is served normally. */
  readonly failures = new Map<string, number>();

  protected constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  /** Base URL to give `ensureDataset` (the upstream folder the manifest's remote paths are relative to). */
  abstract get baseUrl(): string;

  /** Path prefix that `/moved/<x>` redirects to. */
  protected abstract get movedTo(): string;

  /** The local file served at a decoded request path, or undefined for a 404. */
  protected abstract fileFor(decodedPath: string): string | undefined;

  /** Starts a server on an ephemeral port of 127.0.0.1 and hands it to `make`. */
  protected static async listen<T extends LoopbackFileServer>(make: (server: Server, origin: string) => T): Promise<T> {
    let instance: T | undefined;
    const server = createServer((req, res) => instance?.handle(req.url ?? '/', res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    instance = make(server, `http://127.0.0.1:${port}`);
    return instance;
  }

  /** How many requests asked for this decoded path. */
  count(decodedPath: string): number {
    return this.requests.filter((r) => decodeURIComponent(r) === decodedPath).length;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) => this.server.close((e) => (e ? reject(e) : resolve())));
  }

  private handle(rawUrl: string, res: ServerResponse): void {
    this.requests.push(rawUrl);
    const decoded = decodeURIComponent(rawUrl.split('?')[0] ?? '/');
    if (decoded.startsWith('/moved/')) {
      res.writeHead(302, { location: `${this.movedTo}${rawUrl.slice('/moved/'.length)}` }).end();
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
    const full = decoded.includes('..') ? undefined : this.fileFor(decoded);
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
