import { composedContentJson, mapPacked, type GenerateRequest, type GenerateResult } from '../../../core/index.js';
import { createJsonClient } from '../../http/json-client.js';
import type { GenerateOptions, ModelProvider } from '../../spec.js';
import type { OpenAIChatRequestBody } from './openai-api-types.js';
import { convertToOpenAIMessages } from './convert-to-openai-messages.js';
import { prepareTools } from './prepare-tools.js';
import { errorFromStatus } from './openai-errors.js';
import { parseOpenAIResponse } from './parse-openai-response.js';
import { createRedactor } from '../../http/redact-secrets.js';
import { resolveOpenAIEndpoint } from './resolve-endpoint.js';

export interface OpenAIProviderOptions {
  /** Model name sent as `model`, e.g. `gpt-4o-mini`. */
  readonly model: string;
  /** Default: env `OPENAI_BASE_URL`, else `https://api.openai.com/v1`. */
  readonly baseURL?: string;
  /** Default: env `OPENAI_API_KEY`. Required only for api.openai.com. */
  readonly apiKey?: string;
  /** Keep-alive connections to the server (default 64). Concurrency is limited by the middleware; this only caps sockets. */
  readonly connections?: number;
  /** Extra request headers (e.g. `OpenAI-Organization`, a proxy's key). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The id's provider part (default `openai`); `ollama` reuses this provider under its own name, so its calls are cached apart. */
  readonly provider?: string;
  /** Where `OPENAI_BASE_URL` / `OPENAI_API_KEY` defaults are read (default `process.env`); `{}` reads none (ollama must never receive an OpenAI key). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export { DEFAULT_CONNECTIONS } from '../../http/json-client.js';

/** Header names whose values are treated as secrets and scrubbed from errors and results. */
const SECRET_HEADER = /auth|key|token|secret|cookie/i;

/**
 * The chat-completions body for one request. `hints` are deliberately never sent: they are for
 * reference baselines. A `responseFormat` becomes `response_format: json_schema` with `strict: true`
 * (servers without structured output answer 400, a `bad-request` error, rather than ignore it).
 */
export function buildOpenAIRequestBody(model: string, request: GenerateRequest): OpenAIChatRequestBody {
  const { settings } = request;
  const body: OpenAIChatRequestBody = { model, messages: convertToOpenAIMessages(request.messages) };
  const tools = prepareTools(request.tools);
  if (tools) body.tools = tools;
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  if (settings.topP !== undefined) body.top_p = settings.topP;
  if (settings.maxTokens !== undefined) body.max_tokens = settings.maxTokens;
  if (settings.seed !== undefined) body.seed = settings.seed;
  if (settings.stop !== undefined && settings.stop.length > 0) body.stop = [...settings.stop];
  if (request.responseFormat) {
    const { name, schema } = request.responseFormat;
    body.response_format = { type: 'json_schema', json_schema: { name, schema, strict: true } };
  }
  return body;
}

/**
 * `JSON.stringify(buildOpenAIRequestBody(model, request))`, the same text, with the content of a
 * message composed from parts (a MetaTool prompt, ~2.7 KB) taken from `composedContentJson`: the
 * call's cache key wrote it already, so the prompt is not escaped a second time per call (~4 µs
 * and ~8 KB of garbage). The body's members keep their order (`model`, `messages`, then the rest).
 */
export function openAIRequestJson(model: string, request: GenerateRequest): string {
  const body = buildOpenAIRequestBody(model, request);
  let composed = false;
  const contents = mapPacked(request.messages, (message) => {
    const json = composedContentJson(message);
    if (json !== undefined) composed = true;
    return json;
  });
  if (!composed) return JSON.stringify(body);
  const { model: _model, messages, ...rest } = body;
  let json = `{"model":${JSON.stringify(model)},"messages":[`;
  messages.forEach((message, i) => {
    const content = contents[i];
    // A composed message is a user message: sent as {role, content}, its content the parts' text.
    const plain = content !== undefined && (message.role === 'user' || message.role === 'system') && Object.keys(message).length === 2;
    json += (i > 0 ? ',' : '') + (plain ? `{"role":${JSON.stringify(message.role)},"content":${content}}` : JSON.stringify(message));
  });
  const others = JSON.stringify(rest);
  return `${json}]${others === '{}' ? '}' : `,${others.slice(1)}`}`;
}

/**
 * A provider for OpenAI's chat-completions API and the many servers that speak it (vLLM,
 * llama.cpp, Ollama, LiteLLM…). HTTP goes through one undici `Pool` with keep-alive
 * (`createJsonClient`): it costs several times less CPU per request than global `fetch`, which
 * matters at ~1,000 requests/s. Retries, timeouts and rate limits are the middleware's job; this
 * only translates and classifies.
 */
export function createOpenAIProvider(options: OpenAIProviderOptions): ModelProvider {
  const { model } = options;
  const id = `${options.provider ?? 'openai'}:${model}`;
  const endpoint = resolveOpenAIEndpoint(options, options.env);
  // Lower-cased so that an extra `Authorization` replaces ours instead of being sent beside it.
  const extraHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) extraHeaders[name.toLowerCase()] = value;
  const secrets = [
    ...endpoint.secrets,
    ...Object.entries(extraHeaders)
      .filter(([name]) => SECRET_HEADER.test(name))
      // The token alone too: a server echoing it back may drop the `Bearer ` scheme.
      .flatMap(([, value]) => [value, value.replace(/^bearer\s+/i, '')]),
  ];
  const redact = createRedactor(secrets);
  const url = redact(endpoint.url);
  const client = createJsonClient({
    origin: endpoint.origin,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(endpoint.apiKey !== undefined ? { authorization: `Bearer ${endpoint.apiKey}` } : endpoint.basicAuth !== undefined ? { authorization: `Basic ${endpoint.basicAuth}` } : {}),
      ...extraHeaders,
    },
    redact,
    label: id,
    ...(options.connections !== undefined ? { connections: options.connections } : {}),
  });

  async function generate(request: GenerateRequest, options: GenerateOptions): Promise<GenerateResult> {
    const payload = openAIRequestJson(model, request);
    // The middleware's `abort` when given: its signal is then never made (see `AttemptAbort`).
    const response = await client.post(endpoint.path, payload, options.abort ?? options.signal, url);
    if (response.statusCode >= 200 && response.statusCode < 300) return parseOpenAIResponse(response.text, response.statusCode, model);
    throw errorFromStatus(response.statusCode, response.headers, response.text, url);
  }

  return { specVersion: 'v1', id, cacheable: true, secrets, generate, close: () => client.close() };
}
