import type { Fault } from './fault-plan.js';
import { estimateTokens, startLoopbackServer, type LoopbackBehavior, type LoopbackRequestContext, type LoopbackServer, type WireAdapter } from '../demo/loopback-server.js';

export { faultPlan, plannedFault } from './fault-plan.js';

/** A generateContent request body as received: parsed JSON, checked for a `contents` array. */
export interface FakeGeminiRequestBody {
  readonly contents: readonly Readonly<Record<string, unknown>>[];
  readonly systemInstruction?: unknown;
  readonly [field: string]: unknown;
}

/** What the server answers; it wraps this in a complete generateContent response. */
export interface FakeGeminiAnswer {
  /** One text part (left out when '' and there are function calls). */
  readonly text?: string;
  readonly functionCalls?: readonly { readonly name: string; readonly args: unknown; readonly id?: string }[];
  /** Wire `finishReason`; default `STOP`. */
  readonly finishReason?: string;
  /** The candidate's `safetyRatings` (or the prompt's, with `blockReason`). */
  readonly safetyRatings?: readonly unknown[];
  /** Block the prompt: no candidates, `promptFeedback.blockReason` set (e.g. `SAFETY`). */
  readonly blockReason?: string;
  /** Default: ⌈characters / 4⌉ of the prompt and of the answer text. `null` omits usageMetadata. */
  readonly usage?: { readonly promptTokenCount?: number; readonly candidatesTokenCount?: number } | null;
  /** Default: the model named in the path. */
  readonly modelVersion?: string;
  /** Sent verbatim (JSON-serialized) with status 200 instead of a built response. */
  readonly rawBody?: unknown;
}

export type FakeGeminiContext = LoopbackRequestContext<FakeGeminiRequestBody>;
export type FakeGeminiServer = LoopbackServer<FakeGeminiRequestBody, FakeGeminiAnswer>;
export interface FakeGeminiOptions extends LoopbackBehavior<FakeGeminiRequestBody, FakeGeminiAnswer> {
  /** Path prefix including the API version (default `/v1beta`); `url` ends with it. */
  readonly basePath?: string;
  readonly record?: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The text parts of a content (and function responses' `content` when `withResponses`). */
function partsText(content: Readonly<Record<string, unknown>> | undefined, withResponses: boolean): string {
  const parts = content?.parts;
  if (!Array.isArray(parts)) return '';
  let text = '';
  for (const part of parts) {
    if (!isObject(part)) continue;
    if (typeof part.text === 'string') text += part.text;
    if (withResponses && isObject(part.functionResponse) && isObject(part.functionResponse.response)) {
      const value = part.functionResponse.response.content;
      if (typeof value === 'string') text += value;
    }
  }
  return text;
}

const hasTextPart = (content: Readonly<Record<string, unknown>>): boolean => Array.isArray(content.parts) && content.parts.some((part: unknown) => isObject(part) && typeof part.text === 'string');

/** The sample a request belongs to: the text of the last user content with a text part (function responses are the tool's answer). */
export function geminiRequestKey(body: FakeGeminiRequestBody): string {
  for (let i = body.contents.length - 1; i >= 0; i--) {
    const content = body.contents[i];
    if (content?.role === 'user' && hasTextPart(content)) return partsText(content, false);
  }
  return '';
}

const STATUS_NAMES: Readonly<Record<number, string>> = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE', 504: 'DEADLINE_EXCEEDED' };

/** Google's error envelope, with optional `details`. */
export function geminiErrorJson(status: number, message: string, details?: readonly unknown[]): string {
  const name = STATUS_NAMES[status] ?? (status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT');
  return JSON.stringify({ error: { code: status, message, status: name, ...(details ? { details } : {}) } });
}

/**
 * A status fault as Gemini sends it: the wait is not a header but a `google.rpc.RetryInfo` detail
 * (`retryDelay: "0.030s"`) in the body, beside a `QuotaFailure` for 429s. `retryAfter` (seconds)
 * and `retryAfterMs` both become the retryDelay; no Retry-After header is sent.
 */
function statusFault(fault: Extract<Fault, { type: 'status' }>): { body: string; headers: Record<string, string> } {
  const delayMs = fault.retryAfterMs ?? (fault.retryAfter !== undefined && /^\d+(\.\d+)?$/.test(fault.retryAfter) ? Number(fault.retryAfter) * 1000 : undefined);
  const details: unknown[] = [];
  if (fault.status === 429) {
    details.push({ '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_requests', quotaId: 'GenerateRequestsPerMinutePerProjectPerModel' }] });
  }
  if (delayMs !== undefined) details.push({ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${(delayMs / 1000).toFixed(3)}s` });
  const message = fault.status === 429 ? 'You exceeded your current quota (fake).' : `fake error ${fault.status}`;
  return { body: geminiErrorJson(fault.status, message, details.length > 0 ? details : undefined), headers: {} };
}

const ROUTE = /^\/(models|tunedModels)\/([^/:]+):generateContent$/;

function responseJson(answer: FakeGeminiAnswer, body: FakeGeminiRequestBody, model: string, index: number): string {
  if (answer.rawBody !== undefined) return JSON.stringify(answer.rawBody);
  let chars = 0;
  if (isObject(body.systemInstruction)) chars += partsText(body.systemInstruction, false).length;
  for (const content of body.contents) chars += partsText(content, true).length;
  const promptTokenCount = answer.usage?.promptTokenCount ?? estimateTokens(chars);
  const modelVersion = answer.modelVersion ?? model;
  if (answer.blockReason !== undefined) {
    return JSON.stringify({
      promptFeedback: { blockReason: answer.blockReason, ...(answer.safetyRatings ? { safetyRatings: answer.safetyRatings } : {}) },
      ...(answer.usage === null ? {} : { usageMetadata: { promptTokenCount, totalTokenCount: promptTokenCount } }),
      modelVersion,
      responseId: `fake-${index}`,
    });
  }
  const calls = answer.functionCalls ?? [];
  const text = answer.text ?? '';
  const parts: Record<string, unknown>[] = text !== '' || calls.length === 0 ? [{ text }] : [];
  for (const call of calls) parts.push({ functionCall: { ...(call.id !== undefined ? { id: call.id } : {}), name: call.name, args: call.args } });
  const candidatesTokenCount = answer.usage?.candidatesTokenCount ?? estimateTokens(text.length);
  return JSON.stringify({
    candidates: [{ content: { role: 'model', parts }, finishReason: answer.finishReason ?? 'STOP', index: 0, ...(answer.safetyRatings ? { safetyRatings: answer.safetyRatings } : {}) }],
    ...(answer.usage === null ? {} : { usageMetadata: { promptTokenCount, candidatesTokenCount, totalTokenCount: promptTokenCount + candidatesTokenCount } }),
    modelVersion,
    responseId: `fake-${index}`,
  });
}

/** The generateContent wire format, served at `${basePath}/models/{model}:generateContent`. */
export function geminiWire(basePath: string): WireAdapter<FakeGeminiRequestBody, FakeGeminiAnswer> {
  const modelOf = (path: string): string | undefined => (path.startsWith(basePath) ? ROUTE.exec(path.slice(basePath.length))?.[2] : undefined);
  return {
    route: `POST ${basePath}/models/{model}:generateContent`,
    matches: (method, path) => method === 'POST' && modelOf(path) !== undefined,
    readBody: (parsed) => (isObject(parsed) && Array.isArray(parsed.contents) ? (parsed as FakeGeminiRequestBody) : undefined),
    invalidBodyMessage: '* GenerateContentRequest.contents: contents is not specified',
    key: geminiRequestKey,
    defaultAnswer: (_body, key) => ({ text: `echo: ${key}` }),
    answerJson: (answer, body, ctx) => responseJson(answer, body, decodeURIComponent(modelOf(ctx.path) ?? 'fake-model'), ctx.index),
    errorJson: (status, message) => geminiErrorJson(status, message),
    statusFault,
    brokenJson: '{"candidates":[{"content":{"parts":[{"text":',
    credentialHeader: 'x-goog-api-key',
    credentialLength: (value) => value.length,
  };
}

/**
 * A loopback Gemini `generateContent` server for tests: the same recording, latency and fault
 * injection as the OpenAI fake (`fault-plan.ts`), with Gemini's bodies (candidates, promptFeedback,
 * usageMetadata), Google's error envelope (429 RESOURCE_EXHAUSTED with RetryInfo) and the
 * `x-goog-api-key` header.
 */
export async function startFakeGeminiServer(options: FakeGeminiOptions = {}): Promise<FakeGeminiServer> {
  const basePath = (options.basePath ?? '/v1beta').replace(/\/+$/, '');
  return startLoopbackServer(geminiWire(basePath), { ...options, basePath });
}
