import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Fault, FaultContext, FaultType } from './fault-plan.js';

export { faultPlan, plannedFault, type Fault, type FaultContext, type FaultPlanOptions, type FaultType } from './fault-plan.js';

/** A chat-completions request body as received: parsed JSON, checked only for a `messages` array. */
export interface FakeChatRequestBody {
  readonly model?: unknown;
  readonly messages: readonly Readonly<Record<string, unknown>>[];
  readonly [field: string]: unknown;
}

export interface FakeRequestContext extends FaultContext {
  readonly body: FakeChatRequestBody;
  readonly path: string;
  /** All request headers, `authorization` included, so a test can play a server that echoes the key. */
  readonly headers: IncomingHttpHeaders;
}

/** What the server answers; it wraps this in a complete chat-completions response. */
export interface FakeAnswer {
  /** `content` of the message; default '' (or null when there are tool calls). */
  readonly text?: string | null;
  readonly toolCalls?: readonly { readonly id?: string; readonly name: string; readonly arguments: string }[];
  /** Wire `finish_reason`; default `tool_calls` when there are tool calls, else `stop`. */
  readonly finishReason?: string | null;
  /** Default: ⌈characters / 4⌉ of the prompt (all message contents) and of the answer text. `null` omits usage. */
  readonly usage?: { readonly prompt_tokens?: number; readonly completion_tokens?: number } | null;
  /** Sets `message.refusal`. */
  readonly refusal?: string;
  /** The `model` reported in the response; default the requested model. */
  readonly model?: string;
  /** Sent verbatim (JSON-serialized) with status 200 instead of a built response, to test odd shapes. */
  readonly rawBody?: unknown;
}

export type FakeRespond = (body: FakeChatRequestBody, ctx: FakeRequestContext) => FakeAnswer | Promise<FakeAnswer>;

export interface FakeBehavior {
  /** Decides the answer; default: `echo: <key>`. */
  readonly respond?: FakeRespond;
  /** Delay before answering (or faulting), fixed or per request. Default 0. */
  readonly latencyMs?: number | ((ctx: FakeRequestContext) => number);
  /** Fault to inject instead of answering, decided when the request arrives. */
  readonly faults?: (ctx: FakeRequestContext) => Fault | undefined;
}

export interface FakeServerOptions extends FakeBehavior {
  /** Path prefix the server answers under (default `/v1`); `url` ends with it. */
  readonly basePath?: string;
  /** Keep a `RecordedRequest` per request (default true). Counters are kept either way. */
  readonly record?: boolean;
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
  /** Request headers without `authorization` (never recorded: see the two fields below). */
  readonly headers: IncomingHttpHeaders;
  readonly hadAuthorization: boolean;
  /** Length of the bearer token, when the Authorization header is `Bearer <token>`. */
  readonly bearerLength: number | undefined;
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

export interface FakeServer {
  /** Base URL to give the client, e.g. `http://127.0.0.1:40123/v1`. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Requests answered with a proper 200 response, per key. */
  readonly answeredByKey: ReadonlyMap<string, number>;
  /** Requests received (answered or not), per key. */
  readonly attemptsByKey: ReadonlyMap<string, number>;
  /** Requests received in total (also when `record` is false). */
  readonly requestCount: number;
  /** Replaces the given parts of the behaviour (`{ faults: undefined }` removes faults). */
  setBehavior(patch: FakeBehavior): void;
  /** Stops listening and destroys every open socket, hung ones included. */
  close(): Promise<void>;
}

/** The usual "four characters per token" estimate: cheap (the bench sends 10,000 requests) and easy to compute by hand in tests. */
const estimateTokens = (chars: number): number => Math.ceil(chars / 4);

const contentText = (content: unknown): string => {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part: unknown) => (part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : '')).join('');
  return '';
};

/** The key tests identify a sample by: the content of the last user message. */
export function requestKey(body: FakeChatRequestBody): string {
  for (let i = body.messages.length - 1; i >= 0; i--) {
    const message = body.messages[i];
    if (message?.role === 'user') return contentText(message.content);
  }
  return '';
}

const defaultRespond: FakeRespond = (_body, ctx) => ({ text: `echo: ${ctx.key}` });

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function errorJson(status: number, message: string): string {
  const type = status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return JSON.stringify({ error: { message, type, param: null, code: null } });
}

/** Builds the full chat-completions response body for an answer. */
function completionJson(answer: FakeAnswer, body: FakeChatRequestBody, index: number): string {
  if (answer.rawBody !== undefined) return JSON.stringify(answer.rawBody);
  const toolCalls = answer.toolCalls ?? [];
  const text = answer.text ?? (toolCalls.length > 0 ? null : '');
  const message: Record<string, unknown> = { role: 'assistant', content: text, refusal: answer.refusal ?? null };
  if (toolCalls.length > 0) {
    message.tool_calls = toolCalls.map((call, i) => ({ id: call.id ?? `call_${index}_${i}`, type: 'function', function: { name: call.name, arguments: call.arguments } }));
  }
  const finishReason = answer.finishReason !== undefined ? answer.finishReason : toolCalls.length > 0 ? 'tool_calls' : 'stop';
  let usage: Record<string, number> | undefined;
  if (answer.usage !== null) {
    let prompt = answer.usage?.prompt_tokens;
    if (prompt === undefined) {
      let chars = 0;
      for (const m of body.messages) chars += contentText(m.content).length;
      prompt = estimateTokens(chars);
    }
    const completion = answer.usage?.completion_tokens ?? estimateTokens((text ?? '').length);
    usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
  }
  return JSON.stringify({
    id: `chatcmpl-fake-${index}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: answer.model ?? (typeof body.model === 'string' ? body.model : 'fake-model'),
    choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
    ...(usage ? { usage } : {}),
  });
}

function send(res: ServerResponse, status: number, text: string, extraHeaders?: Record<string, string>): void {
  // The flat [name, value, …] form is the cheapest for node:http to serialize.
  const headers = ['content-type', 'application/json', 'content-length', String(Buffer.byteLength(text))];
  if (extraHeaders) for (const [name, value] of Object.entries(extraHeaders)) headers.push(name, value);
  res.writeHead(status, headers);
  res.end(text);
}

/**
 * A loopback OpenAI chat-completions server for tests and benchmarks: deterministic answers,
 * configurable latency, and fault injection keyed by sample so that tests can reason about
 * retries. Listens on 127.0.0.1, port 0 (a free port).
 */
export async function startFakeOpenAIServer(options: FakeServerOptions = {}): Promise<FakeServer> {
  const basePath = (options.basePath ?? '/v1').replace(/\/+$/, '');
  const completionsPath = `${basePath}/chat/completions`;
  const record = options.record ?? true;
  let behavior: FakeBehavior = { respond: options.respond, latencyMs: options.latencyMs, faults: options.faults };
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

  async function act(req: IncomingMessage, res: ServerResponse, entry: LiveRecord, ctx: FakeRequestContext, fault: Fault | undefined): Promise<void> {
    if (entry.outcome !== 'pending' || closing) return;
    // Checked here rather than with a 'close' listener per request, which costs CPU the bench cannot spare.
    if (req.socket.destroyed) return finish(entry, 'client-closed');
    if (fault) {
      switch (fault.type) {
        case 'status': {
          const headers: Record<string, string> = {};
          if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
          if (fault.retryAfterMs !== undefined) headers['retry-after-ms'] = String(fault.retryAfterMs);
          send(res, fault.status, fault.body ?? errorJson(fault.status, `fake error ${fault.status}`), headers);
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
          send(res, 200, '{"id":"chatcmpl-broken","choices":[{"message":');
          finish(entry, 'bad-json', 200);
          return;
      }
    }
    let text: string;
    try {
      text = completionJson(await (behavior.respond ?? defaultRespond)(ctx.body, ctx), ctx.body, ctx.index);
    } catch (error) {
      if (entry.outcome !== 'pending') return;
      if (req.socket.destroyed) return finish(entry, 'client-closed');
      send(res, 500, errorJson(500, `respond threw: ${error instanceof Error ? error.message : String(error)}`));
      finish(entry, 'respond-threw', 500);
      return;
    }
    if (entry.outcome !== 'pending') return; // close() ran while `respond` did
    if (req.socket.destroyed) return finish(entry, 'client-closed');
    send(res, 200, text);
    finish(entry, 'answered', 200);
    answeredByKey.set(ctx.key, (answeredByKey.get(ctx.key) ?? 0) + 1);
  }

  function handle(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const index = requestCount++;
    const path = req.url ?? '';
    const { authorization, ...headers } = req.headers;
    const parsed = parseOrUndefined(raw);
    const valid = parsed !== null && typeof parsed === 'object' && Array.isArray((parsed as { messages?: unknown }).messages);
    const body: FakeChatRequestBody = valid ? (parsed as FakeChatRequestBody) : { messages: [] };
    const key = valid ? requestKey(body) : '';
    const attemptForKey = (attemptsByKey.get(key) ?? 0) + 1;
    attemptsByKey.set(key, attemptForKey);
    const entry: LiveRecord = {
      index,
      method: req.method ?? '',
      path,
      headers,
      hadAuthorization: authorization !== undefined,
      bearerLength: authorization?.startsWith('Bearer ') ? authorization.length - 'Bearer '.length : undefined,
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

    if (req.method !== 'POST' || path !== completionsPath) {
      send(res, 404, errorJson(404, `no route for ${req.method ?? ''} ${path} (the fake serves POST ${completionsPath})`));
      finish(entry, 'not-found', 404);
      return;
    }
    if (!valid) {
      send(res, 400, errorJson(400, 'request body must be a JSON object with a "messages" array'));
      finish(entry, 'invalid', 400);
      return;
    }
    const ctx: FakeRequestContext = { body, key, attemptForKey, index, path, headers: req.headers };
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
    url: `http://127.0.0.1:${port}${basePath}`,
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
