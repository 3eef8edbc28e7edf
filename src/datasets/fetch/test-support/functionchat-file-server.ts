import type { Server } from 'node:http';
import path from 'node:path';
import { LoopbackFileServer } from './loopback-file-server.js';

/**
 * The commits of kakao/FunctionChat-Bench the shared copy was taken from, and the data-dir folder
 * holding each one's `data/` (shared/datasets/PROVENANCE.md). Written out here rather than read
 * from the manifest, so that a manifest pointing at the wrong commit or folder fails the tests.
 */
const COMMIT_FOLDERS: Readonly<Record<string, string>> = {
  cb32af378a2b94ee84fc4d3cb50302377c7ff679: 'v2.0.0',
  '4c630984fd9aa54e2eb48ef53f2dc16d4d69d95a': 'paper-2024-09',
};

/**
 * Test support: a loopback HTTP server laid out like raw.githubusercontent.com/kakao/FunctionChat-Bench/
 * under `/repo/`: `/repo/<commit>/data/<file>` from `functionchat/<version>/<file>`, and
 * `/repo/<commit>/LICENSE` and `NOTICE.md` from `functionchat/`, for the two known commits only
 * (see `LoopbackFileServer` for the overrides, failures and redirects tests can set).
 */
export class FunctionChatFileServer extends LoopbackFileServer {
  private constructor(
    server: Server,
    origin: string,
    private readonly functionchatDir: string,
  ) {
    super(server, origin);
  }

  /** Starts on an ephemeral port of 127.0.0.1, serving the `functionchat/` folder of a data dir. */
  static async start(functionchatDir: string): Promise<FunctionChatFileServer> {
    return LoopbackFileServer.listen((server, origin) => new FunctionChatFileServer(server, origin, functionchatDir));
  }

  /** Base URL to give `ensureDataset` (the repository's raw root, commits below it). */
  get baseUrl(): string {
    return `${this.origin}/repo/`;
  }

  protected get movedTo(): string {
    return '/repo/';
  }

  protected fileFor(decoded: string): string | undefined {
    const match = /^\/repo\/([0-9a-f]{40})\/(LICENSE|NOTICE\.md|data\/[^/]+)$/.exec(decoded);
    const folder = match ? COMMIT_FOLDERS[match[1] as string] : undefined;
    if (!match || !folder) return undefined;
    const file = match[2] as string;
    return file.startsWith('data/') ? path.join(this.functionchatDir, folder, file.slice('data/'.length)) : path.join(this.functionchatDir, file);
  }
}
