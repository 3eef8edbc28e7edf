import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Fault, FaultContext, FaultType } from './faults.js';

/**
 * What makes a loopback server speak one wire format (OpenAI chat completions, Anthropic
 * Messages, Gemini generateContent): its route, how a request names its sample, and how answers
 * and errors look. Everything else — recording, latency, fault injection, closing — is shared.
 */
export interface WireAdapter<Body, Answer> {
  /** The route served, for 404 messages, e.g. `POST /v1/messages`. */
  readonly route: string;
  matches(method: string, path: string): boolean;
  /** The parsed JSON as a request body, or undefined when it lacks what the format requires. */
  readBody(parsed: unknown): Body | undefined;
  /** Sent with a 400 when `readBody` refuses. */
  readonly invalidBodyMessage: string;
  /** What else the real API refuses with a 400 (a missing version header, a missing required field); undefined when fine. */
  checkRequest?(body: Body, headers: IncomingHttpHeaders): string | undefined;
  /** The sample a request belongs to: the text of its last user message. */
  key(body: Body): string;
  /** The answer when the behaviour gives no `respond`. */
  defaultAnswer(body: Body, key: string): Answer;
  /** The complete 200 body for an answer. */
  answerJson(answer: Answer, body: Body, ctx: LoopbackRequestContext<Body>): string;
  /** The wire's error envelope for a status. */
  errorJson(status: number, message: string): string;
  /** Headers and body of a `status` fault without its own body; default: `retry-after`/`retry-after-ms` headers and `errorJson`. */
  statusFault?(fault: Extract<Fault, { type: 'status' }>): { readonly body: string; readonly headers: Record<string, string> };
  /** A 200 body that is cut off mid-JSON (the `bad-json` fault). */
  readonly brokenJson: string;
  /** The header carrying the key (lower case): never recorded, only whether it came and its length. */
  readonly credentialHeader: string;
  /** The key's length in that header's value (e.g. without `Bearer `); undefined when it has no key shape. */
  credentialLength(value: string): number | undefined;
}

export interface LoopbackRequestContext<Body> extends FaultContext {
  readonly body: Body;
  readonly path: string;
  /** All request headers, the key's included, so a test can play a server that echoes the key. */
  readonly headers: IncomingHttpHeaders;
}

export type LoopbackRespond<Body, Answer> = (body: Body, ctx: LoopbackRequestContext<Body>) => Answer | Promise<Answer>;

export interface LoopbackBehavior<Body, Answer> {
  /** Decides the answer; default: the adapter's (an echo of the key). */
  readonly respond?: LoopbackRespond<Body, Answer>;
  /** Delay before answering (or faulting), fixed or per request. Default 0. */
  readonly latencyMs?: number | ((ctx: LoopbackRequestContext<Body>) => number);
  /** Fault to inject instead of answering, decided when the request arrives. */
  readonly faults?: (ctx: LoopbackRequestContext<Body>) => Fault | undefined;
}

export interface LoopbackOptions<Body, Answer> extends LoopbackBehavior<Body, Answer> {
  /** Keep a `RecordedRequest` per request (default true). Counters are kept either way. */
  readonly record?: boolean;
  /**
   * Count requests per key (default true): `attemptsByKey`, `answeredByKey`, and `attemptForKey`
   * for fault plans. Off, both maps stay empty and every request is a first attempt: the benchmark's
   * server turns it off because holding every prompt as a map key made its GC pauses (~0.35 s over
   * 10,000 requests) part of the latency it serves.
   */
  readonly countByKey?: boolean;
  /** Path prefix included in `url` (the adapter decides what it serves). */
  readonly basePath: string;
}

/**
 * `pending` until decided; a fault type when one was injected (`hang` stays `hang`);
 * `client-closed` when the client had left by the time the answer was due (noticed then, not at
 * once); `server-closed` when `close()` cut it.
 */
export type RequestOutcome = 'pending' | 'answered' | FaultType | 'invalid' | 'not-found' | 'client-closed' | 'server-closed' | 'respond-threw';

export interface RecordedRequest {
  readonly index: number;
  readonly method: string;
  readonly path: string;
  /** Request headers without the key's header (never recorded: see the two fields below). */
  readonly headers: IncomingHttpHeaders;
  /** Whether the key's header (`authorization`, `x-api-key`, `x-goog-api-key`) came. */
  readonly hadCredential: boolean;
  /** Length of the key in it (for `authorization`, of the bearer token). */
  readonly credentialLength: number | undefined;
  /** The body as received. */
  readonly rawBody: string;
  /** `rawBody` parsed (on each read); `undefined` when it is not JSON. Kept as text so 10,000 recorded bodies stay cheap for the GC. */
  readonly body: unknown;
  readonly key: string;
  readonly attemptForKey: number;
  /** `Date.now()` when the request body had arrived. */
  readonly receivedAt: number;
  /** `Date.now()` when the server answered, faulted, or saw the client leave. */
  readonly finishedAt: number | undefined;
  readonly outcome: RequestOutcome;
  /** HTTP status sent, when one was. */
  readonly status: number | undefined;
}

/** The server's own view of a record: it fills in the outcome as the request proceeds. */
type LiveRecord = { -readonly [K in keyof RecordedRequest]: RecordedRequest[K] };

export interface LoopbackServer<Body, Answer> {
  /** Base URL to give the client (origin + `basePath`). */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Requests answered with a proper 200 response, per key. */
  readonly answeredByKey: ReadonlyMap<string, number>;
  /** Requests received (answered or not), per key. */
  readonly attemptsByKey: ReadonlyMap<string, number>;
  /** Requests received in total (also when `record` is false). */
  readonly requestCount: number;
  /** Replaces the given parts of the behaviour (`{ faults: undefined }` removes faults). */
  setBehavior(patch: LoopbackBehavior<Body, Answer>): void;
  /** Stops listening and destroys every open socket, hung ones included. */
  close(): Promise<void>;
}

/** The usual "four characters per token" estimate: cheap, and easy to compute by hand in tests. */
export const estimateTokens = (chars: number): number => Math.ceil(chars / 4);

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function send(res: ServerResponse, status: number, text: string, extraHeaders?: Record<string, string>): void {
  // The flat [name, value, …] form is the cheapest for node:http to serialize.
  const headers = ['content-type', 'application/json', 'content-length', String(Buffer.byteLength(text))];
  if (extraHeaders) for (const [name, value] of Object.entries(extraHeaders)) headers.push(name, value);
  res.writeHead(status, headers);
  res.end(text);
}

/**
 * A loopback server for tests and benchmarks speaking `adapter`'s wire format: deterministic
 * answers, configurable latency, and fault injection keyed by sample so that tests can reason
 * about retries. Listens on 127.0.0.1, port 0 (a free port).
 */
export async function startLoopbackServer<Body, Answer>(adapter: WireAdapter<Body, Answer>, options: LoopbackOptions<Body, Answer>): Promise<LoopbackServer<Body, Answer>> {
  const record = options.record ?? true;
  const countByKey = options.countByKey ?? true;
  let behavior: LoopbackBehavior<Body, Answer> = { respond: options.respond, latencyMs: options.latencyMs, faults: options.faults };
  const requests: RecordedRequest[] = [];
  const answeredByKey = new Map<string, number>();
  const attemptsByKey = new Map<string, number>();
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  /** Requests not yet finished (waiting, being answered, or hung), so that close() can settle their records. */
  const inFlight = new Set<LiveRecord>();
  let requestCount = 0;
  let closing: Promise<void> | undefined;

  function finish(entry: LiveRecord, outcome: RequestOutcome, status?: number): void {
    entry.outcome = outcome;
    entry.status = status;
    entry.finishedAt = Date.now();
    inFlight.delete(entry);
  }

  function statusFault(fault: Extract<Fault, { type: 'status' }>): { body: string; headers: Record<string, string> } {
    if (fault.body === undefined && adapter.statusFault) return adapter.statusFault(fault);
    const headers: Record<string, string> = {};
    if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
    if (fault.retryAfterMs !== undefined) headers['retry-after-ms'] = String(fault.retryAfterMs);
    return { body: fault.body ?? adapter.errorJson(fault.status, `fake error ${fault.status}`), headers };
  }

  async function act(req: IncomingMessage, res: ServerResponse, entry: LiveRecord, ctx: LoopbackRequestContext<Body>, fault: Fault | undefined): Promise<void> {
    if (entry.outcome !== 'pending' || closing) return;
    // Checked here rather than with a 'close' listener per request, which costs CPU the bench cannot spare.
    if (req.socket.destroyed) return finish(entry, 'client-closed');
    if (fault) {
      switch (fault.type) {
        case 'status': {
          const { body, headers } = statusFault(fault);
          send(res, fault.status, body, headers);
          finish(entry, 'status', fault.status);
          return;
        }
        case 'hang':
          entry.outcome = 'hang'; // stays open: closed by the client or by close()
          res.once('close', () => {
            if (entry.finishedAt === undefined) finish(entry, 'hang');
          });
          return;
        case 'reset':
          finish(entry, 'reset');
          req.socket.destroy();
          return;
        case 'bad-json':
          send(res, 200, adapter.brokenJson);
          finish(entry, 'bad-json', 200);
          return;
      }
    }
    let text: string;
    try {
      const answer = behavior.respond ? await behavior.respond(ctx.body, ctx) : adapter.defaultAnswer(ctx.body, ctx.key);
      text = adapter.answerJson(answer, ctx.body, ctx);
    } catch (error) {
      if (entry.outcome !== 'pending') return;
      if (req.socket.destroyed) return finish(entry, 'client-closed');
      send(res, 500, adapter.errorJson(500, `respond threw: ${error instanceof Error ? error.message : String(error)}`));
      finish(entry, 'respond-threw', 500);
      return;
    }
    if (entry.outcome !== 'pending') return; // close() ran while `respond` did
    if (req.socket.destroyed) return finish(entry, 'client-closed');
    send(res, 200, text);
    finish(entry, 'answered', 200);
    if (countByKey) answeredByKey.set(ctx.key, (answeredByKey.get(ctx.key) ?? 0) + 1);
  }

  function handle(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const index = requestCount++;
    const path = req.url ?? '';
    const method = req.method ?? '';
    const { [adapter.credentialHeader]: credential, ...headers } = req.headers;
    const credentialValue = Array.isArray(credential) ? credential[0] : credential;
    const body = adapter.readBody(parseOrUndefined(raw));
    const key = body !== undefined ? adapter.key(body) : '';
    const attemptForKey = countByKey ? (attemptsByKey.get(key) ?? 0) + 1 : 1;
    if (countByKey) attemptsByKey.set(key, attemptForKey);
    const entry: LiveRecord = {
      index,
      method,
      path,
      headers,
      hadCredential: credentialValue !== undefined,
      credentialLength: credentialValue === undefined ? undefined : adapter.credentialLength(credentialValue),
      rawBody: raw,
      get body(): unknown {
        return parseOrUndefined(raw);
      },
      key,
      attemptForKey,
      receivedAt: Date.now(),
      finishedAt: undefined,
      outcome: 'pending',
      status: undefined,
    };
    if (record) requests.push(entry);

    if (!adapter.matches(method, path)) {
      send(res, 404, adapter.errorJson(404, `no route for ${method} ${path} (the fake serves ${adapter.route})`));
      finish(entry, 'not-found', 404);
      return;
    }
    if (body === undefined) {
      send(res, 400, adapter.errorJson(400, adapter.invalidBodyMessage));
      finish(entry, 'invalid', 400);
      return;
    }
    const refused = adapter.checkRequest?.(body, req.headers);
    if (refused !== undefined) {
      send(res, 400, adapter.errorJson(400, refused));
      finish(entry, 'invalid', 400);
      return;
    }
    const ctx: LoopbackRequestContext<Body> = { body, key, attemptForKey, index, path, headers: req.headers };
    const fault = behavior.faults?.(ctx);
    const latency = typeof behavior.latencyMs === 'function' ? behavior.latencyMs(ctx) : (behavior.latencyMs ?? 0);
    inFlight.add(entry);
    if (latency > 0) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        void act(req, res, entry, ctx, fault);
      }, latency);
      timers.add(timer);
    } else {
      void act(req, res, entry, ctx, fault);
    }
  }

  const server = createServer({ keepAliveTimeout: 10_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handle(req, res, chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8')));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${options.basePath}`,
    requests,
    answeredByKey,
    attemptsByKey,
    get requestCount() {
      return requestCount;
    },
    setBehavior(patch) {
      behavior = {
        respond: 'respond' in patch ? patch.respond : behavior.respond,
        latencyMs: 'latencyMs' in patch ? patch.latencyMs : behavior.latencyMs,
        faults: 'faults' in patch ? patch.faults : behavior.faults,
      };
    },
    close() {
      if (closing) return closing;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      // Settle the records now: the sockets' 'close' events would only arrive after this resolves.
      const now = Date.now();
      for (const entry of inFlight) {
        if (entry.outcome === 'pending') entry.outcome = 'server-closed';
        entry.finishedAt = now;
      }
      inFlight.clear();
      closing = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      return closing;
    },
  };
}
