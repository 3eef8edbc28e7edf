import { estimateTokens, startLoopbackServer, type LoopbackBehavior, type LoopbackRequestContext, type LoopbackServer, type WireAdapter } from './loopback-server.js';

export type { RecordedRequest, RequestOutcome } from './loopback-server.js';

/** A chat-completions request body as received: parsed JSON, checked only for a `messages` array. */
export interface FakeChatRequestBody {
  readonly model?: unknown;
  readonly messages: readonly Readonly<Record<string, unknown>>[];
  readonly [field: string]: unknown;
}

export type FakeRequestContext = LoopbackRequestContext<FakeChatRequestBody>;

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
  /** Sent as it is with status 200 (JSON text written by hand: escapes a serializer would not use). */
  readonly rawText?: string;
}

export type FakeRespond = (body: FakeChatRequestBody, ctx: FakeRequestContext) => FakeAnswer | Promise<FakeAnswer>;

export type FakeBehavior = LoopbackBehavior<FakeChatRequestBody, FakeAnswer>;


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

function errorJson(status: number, message: string): string {
  const type = status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return JSON.stringify({ error: { message, type, param: null, code: null } });
}

/** Builds the full chat-completions response body for an answer. */
function completionJson(answer: FakeAnswer, body: FakeChatRequestBody, index: number): string {
  if (answer.rawText !== undefined) return answer.rawText;
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

/** The chat-completions wire format, served at `${basePath}/chat/completions`. */
export function openAIWire(basePath: string): WireAdapter<FakeChatRequestBody, FakeAnswer> {
  const completionsPath = `${basePath}/chat/completions`;
  return {
    route: `POST ${completionsPath}`,
    // A base URL's query (`…/v1?api-version=…`) comes after the path.
    matches: (method, path) => method === 'POST' && path.split('?')[0] === completionsPath,
    readBody: (parsed) => (parsed !== null && typeof parsed === 'object' && Array.isArray((parsed as { messages?: unknown }).messages) ? (parsed as FakeChatRequestBody) : undefined),
    invalidBodyMessage: 'request body must be a JSON object with a "messages" array',
    key: requestKey,
    defaultAnswer: (_body, key) => ({ text: `echo: ${key}` }),
    answerJson: (answer, body, ctx) => completionJson(answer, body, ctx.index),
    errorJson,
    brokenJson: '{"id":"chatcmpl-broken","choices":[{"message":',
    credentialHeader: 'authorization',
    credentialLength: (value) => (value.startsWith('Bearer ') ? value.length - 'Bearer '.length : undefined),
  };
}

export interface FakeServerOptions extends FakeBehavior {
  /** Path prefix the server answers under (default `/v1`); `url` ends with it. */
  readonly basePath?: string;
  /** Keep a `RecordedRequest` per request (default true). Counters are kept either way. */
  readonly record?: boolean;
  /** Count requests per key (default true; see `LoopbackOptions.countByKey`). */
  readonly countByKey?: boolean;
}

export type FakeServer = LoopbackServer<FakeChatRequestBody, FakeAnswer>;

/**
 * A loopback OpenAI chat-completions server: the demo's (scripted answers) and the tests' and
 * benchmarks' (deterministic answers, configurable latency, and fault injection keyed by sample so
 * that tests can reason about retries). Listens on 127.0.0.1, port 0 (a free port).
 */
export async function startFakeOpenAIServer(options: FakeServerOptions = {}): Promise<FakeServer> {
  const basePath = (options.basePath ?? '/v1').replace(/\/+$/, '');
  return startLoopbackServer(openAIWire(basePath), { ...options, basePath });
}
