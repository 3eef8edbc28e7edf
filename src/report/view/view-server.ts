import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { networkInterfaces } from 'node:os';
import { gzipSync } from 'node:zlib';
import { InputError } from '../../core/index.js';
import type { Store } from '../../store/store.js';
import { toolkitVersion } from '../../version.js';
import { RUN_REPORT_SCHEMA, type ReportBundle, type RunReport } from '../run-report.js';
import { accessDecision, accessPolicy, TOKEN_COOKIE, type AccessPolicy } from './access.js';
import { listRunProgress } from './run-progress.js';
import { RunReports } from './run-reports.js';
import { route, type Route } from './routes.js';
import { viewerPage } from './viewer-pages.js';

export interface ViewServerOptions {
  readonly store: Store;
  /** The address to bind (default 127.0.0.1). Anything but loopback needs the access token. */
  readonly host?: string;
  /** 0 or absent: a free port. */
  readonly port?: number;
  /** Told about a request that failed inside the viewer (a store error): never about a refused one. */
  readonly onError?: (error: unknown) => void;
}

export interface ViewServer {
  /** The URL to open: with `?token=` when a token is needed. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** The access token, when bound to anything but loopback. */
  readonly token: string | undefined;
  close(): Promise<void>;
}

const BASE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'Cross-Origin-Resource-Policy': 'same-origin',
} as const;

/** Above this a JSON answer is gzipped for a client that takes it (a large run's sample index). */
const GZIP_FROM = 64 * 1024;

function send(req: IncomingMessage, res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
  let data: Buffer = Buffer.from(body, 'utf8');
  const extra: Record<string, string> = { ...headers };
  if (data.length >= GZIP_FROM && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
    data = gzipSync(data, { level: 1 });
    extra['Content-Encoding'] = 'gzip';
    extra['Vary'] = 'Accept-Encoding';
  }
  res.writeHead(status, { ...BASE_HEADERS, 'Content-Type': type, 'Content-Length': String(data.length), ...extra });
  res.end(req.method === 'HEAD' ? undefined : data);
}

const sendJson = (req: IncomingMessage, res: ServerResponse, status: number, value: unknown): void => send(req, res, status, 'application/json; charset=utf-8', JSON.stringify(value));

/** A report without its sample index and details: what a page paints its summaries from. */
const summariesOf = ({ index: _index, details: _details, ...rest }: RunReport): Omit<RunReport, 'index' | 'details'> => rest;

/** Every address of this machine's interfaces (what a Host header may name when bound to 0.0.0.0 or ::). */
function machineAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((a) => a.address));
}

async function answer(reports: RunReports, store: Store, found: Route, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const runsOrMissing = async (ids: readonly string[]) => {
    const runs = [];
    for (const id of ids) {
      const run = await reports.run(id);
      if (!run) return undefined;
      runs.push(run);
    }
    return runs;
  };
  switch (found.kind) {
    case 'list-page':
      return send(req, res, 200, 'text/html; charset=utf-8', viewerPage.list.html, { 'Content-Security-Policy': viewerPage.list.csp });
    case 'report-page': {
      if (!(await runsOrMissing(found.runs))) return send(req, res, 404, 'text/plain; charset=utf-8', 'no such run in this store\n');
      const page = viewerPage.report(found.runs);
      return send(req, res, 200, 'text/html; charset=utf-8', page.html, { 'Content-Security-Policy': page.csp });
    }
    case 'runs':
      return sendJson(req, res, 200, await listRunProgress(store));
    case 'report':
    case 'progress': {
      const runs = await runsOrMissing(found.runs);
      if (!runs) return sendJson(req, res, 404, { error: 'no such run in this store' });
      if (found.kind === 'progress') return sendJson(req, res, 200, await Promise.all(runs.map((run) => reports.progress(run))));
      const built: ReturnType<typeof summariesOf>[] = [];
      for (const run of runs) built.push(summariesOf(await reports.report(run)));
      const bundle: Omit<ReportBundle, 'runs'> & { runs: typeof built } = { schema: RUN_REPORT_SCHEMA, generatedAt: new Date().toISOString(), toolkitVersion, runs: built };
      return sendJson(req, res, 200, bundle);
    }
    case 'samples':
    case 'detail': {
      const run = await reports.run(found.run);
      if (!run) return sendJson(req, res, 404, { error: 'no such run in this store' });
      if (found.kind === 'samples') return sendJson(req, res, 200, { index: (await reports.report(run)).index, details: {} });
      const detail = await reports.detail(run, found.row);
      return detail ? sendJson(req, res, 200, detail) : sendJson(req, res, 404, { error: 'no such row in this run' });
    }
  }
}

/** The request target read as a URL; undefined when it is not one (`GET http://[`, `GET //[`): the parser lets those through. */
function requestUrl(req: IncomingMessage): URL | undefined {
  try {
    return new URL(req.url ?? '/', 'http://viewer.invalid');
  } catch {
    return undefined;
  }
}

async function handle(policy: AccessPolicy, reports: RunReports, store: Store, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = requestUrl(req);
  if (!url) return send(req, res, 400, 'text/plain; charset=utf-8', 'bad request: the request target is not a URL\n');
  const access = accessDecision(policy, { host: req.headers.host, url, authorization: req.headers.authorization, cookie: req.headers.cookie });
  if (access === 'bad-host') return send(req, res, 403, 'text/plain; charset=utf-8', 'refused: the Host header does not name this viewer\n');
  if (access === 'no-token') return send(req, res, 403, 'text/plain; charset=utf-8', 'refused: this viewer needs the access token it printed (open the URL it gave)\n');
  const found = route(req.method ?? 'GET', url);
  if (found.kind === 'error') {
    return found.status === 405 ? send(req, res, 405, 'text/plain; charset=utf-8', `${found.message}\n`, { Allow: 'GET, HEAD' }) : sendJson(req, res, found.status, { error: found.message });
  }
  // A token in the URL of a page: kept in a cookie only this site's requests carry, and taken out of the address bar.
  if (policy.token !== undefined && url.searchParams.has('token') && (found.kind === 'list-page' || found.kind === 'report-page')) {
    url.searchParams.delete('token');
    res.writeHead(303, { ...BASE_HEADERS, Location: `${url.pathname}${url.search}`, 'Set-Cookie': `${TOKEN_COOKIE}=${policy.token}; HttpOnly; SameSite=Strict; Path=/` });
    res.end();
    return;
  }
  await answer(reports, store, found, req, res);
}

/**
 * What a request that threw gets: a store error is told to `onError` and answered 500 (an
 * {@link InputError} 404); once the answer has begun, the connection is cut. Never throws, so one
 * request's error cannot end the process.
 */
function answerFailure(req: IncomingMessage, res: ServerResponse, error: unknown, onError: (error: unknown) => void): void {
  try {
    onError(error);
  } catch {
    // A failing report of a failure must not take the server down either.
  }
  try {
    if (!res.headersSent) sendJson(req, res, error instanceof InputError ? 404 : 500, { error: error instanceof InputError ? error.message : 'the viewer could not read this from the store' });
    else res.destroy();
  } catch {
    res.destroy();
  }
}

const urlHost = (host: string): string => (host.includes(':') ? `[${host}]` : host);

/**
 * `assay view`'s server: node:http, read-only over the store, one page script shared with the
 * file report. Resolves once it listens; a port in use or an address it cannot bind is an
 * {@link InputError}.
 */
export async function startViewServer(options: ViewServerOptions): Promise<ViewServer> {
  const host = options.host ?? '127.0.0.1';
  const reports = new RunReports(options.store);
  const onError = options.onError ?? (() => {});
  let policy: AccessPolicy | undefined;
  const server = createServer((req, res) => {
    if (!policy) return void res.destroy();
    handle(policy, reports, options.store, req, res).catch((error: unknown) => answerFailure(req, res, error, onError));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const port = options.port ?? 0;
      if (error.code === 'EADDRINUSE') reject(new InputError(`port ${port} is in use on ${host}: give another with --port, or leave --port out for a free one`));
      else if (error.code === 'EACCES') reject(new InputError(`not allowed to listen on port ${port} (ports below 1024 need privileges): give another with --port`));
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN' || error.code === 'EINVAL') reject(new InputError(`cannot listen on --host ${host}: not an address of this machine (${error.code})`));
      else reject(error);
    });
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  policy = accessPolicy(host, port, machineAddresses());
  const token = policy.token;
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    url: `http://${urlHost(shown)}:${port}/${token === undefined ? '' : `?token=${token}`}`,
    host,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
