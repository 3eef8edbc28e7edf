import type { Server } from 'node:http';
import path from 'node:path';
import { LoopbackFileServer } from './loopback-file-server.js';

/**
 * Test support: a loopback HTTP server laid out like the MetaTool repository at a commit —
 * `/dataset/<file>` and `/LICENSE` — serving the shared read-only copy (see `LoopbackFileServer`
 * for the overrides, failures and redirects tests can set).
 */
export class MetatoolFileServer extends LoopbackFileServer {
  private constructor(
    server: Server,
    origin: string,
    private readonly metatoolDir: string,
  ) {
    super(server, origin);
  }

  /** Starts on an ephemeral port of 127.0.0.1. */
  static async start(metatoolDir: string): Promise<MetatoolFileServer> {
    return LoopbackFileServer.listen((server, origin) => new MetatoolFileServer(server, origin, metatoolDir));
  }

  /** Base URL to give `ensureDataset` (the repository's `dataset/` folder). */
  get baseUrl(): string {
    return `${this.origin}/dataset/`;
  }

  protected get movedTo(): string {
    return '/dataset/';
  }

  protected fileFor(decoded: string): string | undefined {
    const file = decoded === '/LICENSE' ? 'LICENSE' : decoded.startsWith('/dataset/') ? decoded.slice('/dataset/'.length) : undefined;
    // derived/ is assay's, not upstream's: never served.
    return file && !file.startsWith('derived/') ? path.join(this.metatoolDir, ...file.split('/')) : undefined;
  }
}
