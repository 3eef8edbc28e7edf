import { estimateTokens, startLoopbackServer, type LoopbackBehavior, type LoopbackRequestContext, type LoopbackServer, type WireAdapter } from '../demo/loopback-server.js';

export { faultPlan, plannedFault } from './fault-plan.js';

/** A Messages request body as received: parsed JSON, checked for a `messages` array. */
export interface FakeAnthropicRequestBody {
  readonly model?: unknown;
  readonly system?: unknown;
  readonly max_tokens?: unknown;
  readonly messages: readonly Readonly<Record<string, unknown>>[];
  readonly [field: string]: unknown;
}

/** What the server answers; it wraps this in a complete Messages response. */
export interface FakeAnthropicAnswer {
  /** One `text` block (left out when '' and there are tool uses). */
  readonly text?: string;
  readonly toolUses?: readonly { readonly id?: string; readonly name: string; readonly input: unknown }[];
  /** Wire `stop_reason`; default `tool_use` when there are tool uses, else `end_turn`. */
  readonly stopReason?: string | null;
  /** Default: ⌈characters / 4⌉ of the prompt (system + all text) and of the answer text. `null` omits usage. */
  readonly usage?: { readonly input_tokens?: number; readonly output_tokens?: number } | null;
  /** The `model` reported; default the requested one. */
  readonly model?: string;
  /** Sent verbatim (JSON-serialized) with status 200 instead of a built response. */
  readonly rawBody?: unknown;
}

export type FakeAnthropicContext = LoopbackRequestContext<FakeAnthropicRequestBody>;
export type FakeAnthropicServer = LoopbackServer<FakeAnthropicRequestBody, FakeAnthropicAnswer>;
export interface FakeAnthropicOptions extends LoopbackBehavior<FakeAnthropicRequestBody, FakeAnthropicAnswer> {
  /** Path prefix before `/v1/messages` (default none: the base URL is the bare origin, as for api.anthropic.com). */
  readonly basePath?: string;
  readonly record?: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The text of a message's content: the string, or its `text` blocks (and `tool_result` contents when `withResults`). */
function contentText(content: unknown, withResults: boolean): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') text += block.text;
    if (withResults && block.type === 'tool_result' && typeof block.content === 'string') text += block.content;
  }
  return text;
}

/**
 * The sample a request belongs to: the text of the last user message that has text (a user
 * message holding only `tool_result` blocks is the tool's answer, not the user's question).
 */
export function anthropicRequestKey(body: FakeAnthropicRequestBody): string {
  for (let i = body.messages.length - 1; i >= 0; i--) {
    const message = body.messages[i];
    if (message?.role !== 'user') continue;
    const text = contentText(message.content, false);
    if (text !== '' || typeof message.content === 'string') return text;
  }
  return '';
}

const ERROR_TYPES: Readonly<Record<number, string>> = { 400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error', 413: 'request_too_large', 429: 'rate_limit_error', 500: 'api_error', 529: 'overloaded_error' };

/** Anthropic's error envelope: `{"type":"error","error":{"type","message"},"request_id"}`. */
export function anthropicErrorJson(status: number, message: string): string {
  const type = ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
  return JSON.stringify({ type: 'error', error: { type, message }, request_id: `req_fake_${status}` });
}

function messageJson(answer: FakeAnthropicAnswer, body: FakeAnthropicRequestBody, index: number): string {
  if (answer.rawBody !== undefined) return JSON.stringify(answer.rawBody);
  const toolUses = answer.toolUses ?? [];
  const text = answer.text ?? '';
  const content: Record<string, unknown>[] = text !== '' || toolUses.length === 0 ? [{ type: 'text', text }] : [];
  toolUses.forEach((use, i) => content.push({ type: 'tool_use', id: use.id ?? `toolu_fake_${index}_${i}`, name: use.name, input: use.input }));
  const stopReason = answer.stopReason !== undefined ? answer.stopReason : toolUses.length > 0 ? 'tool_use' : 'end_turn';
  let usage: Record<string, number> | undefined;
  if (answer.usage !== null) {
    let chars = typeof body.system === 'string' ? body.system.length : 0;
    for (const m of body.messages) chars += contentText(m.content, true).length;
    usage = { input_tokens: answer.usage?.input_tokens ?? estimateTokens(chars), output_tokens: answer.usage?.output_tokens ?? estimateTokens(text.length) };
  }
  return JSON.stringify({
    id: `msg_fake_${index}`,
    type: 'message',
    role: 'assistant',
    model: answer.model ?? (typeof body.model === 'string' ? body.model : 'fake-model'),
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    ...(usage ? { usage } : {}),
  });
}

/** The Messages wire format, served at `${basePath}/v1/messages`. */
export function anthropicWire(basePath: string): WireAdapter<FakeAnthropicRequestBody, FakeAnthropicAnswer> {
  const messagesPath = `${basePath}/v1/messages`;
  return {
    route: `POST ${messagesPath}`,
    matches: (method, path) => method === 'POST' && path === messagesPath,
    readBody: (parsed) => (isObject(parsed) && Array.isArray(parsed.messages) ? (parsed as FakeAnthropicRequestBody) : undefined),
    invalidBodyMessage: 'messages: Field required',
    // What the real API refuses before looking at the prompt.
    checkRequest: (body, headers) => {
      if (headers['anthropic-version'] === undefined) return 'anthropic-version: header is required';
      if (typeof body.max_tokens !== 'number') return 'max_tokens: Field required';
      return undefined;
    },
    key: anthropicRequestKey,
    defaultAnswer: (_body, key) => ({ text: `echo: ${key}` }),
    answerJson: (answer, body, ctx) => messageJson(answer, body, ctx.index),
    errorJson: anthropicErrorJson,
    brokenJson: '{"id":"msg_broken","type":"message","content":[{"type":"text","text":',
    credentialHeader: 'x-api-key',
    credentialLength: (value) => value.length,
  };
}

/**
 * A loopback Anthropic Messages server (`POST /v1/messages`) for tests: the same recording,
 * latency and fault injection as the OpenAI fake (`fault-plan.ts`), with Anthropic's bodies,
 * error envelope (429 `rate_limit_error`, 529 `overloaded_error`…) and `x-api-key` header.
 */
export async function startFakeAnthropicServer(options: FakeAnthropicOptions = {}): Promise<FakeAnthropicServer> {
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  return startLoopbackServer(anthropicWire(basePath), { ...options, basePath });
}
