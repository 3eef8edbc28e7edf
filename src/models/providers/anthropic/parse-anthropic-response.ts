import { usageOf, toolCallFromRaw, type GenerateResult, type ToolCall, type Usage, type Warning } from '../../../core/index.js';
import { isJsonObject as isObject } from '../../../core/index.js';
import { badResponse, parseJsonObjectBody } from '../../http/call-errors.js';
import type { AnthropicResponse, AnthropicUsage } from './anthropic-api-types.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/**
 * Input tokens are `input_tokens` plus the prompt-cache writes and reads, which the API counts
 * apart (all three are prompt tokens; only their prices differ).
 */
function readUsage(usage: unknown): Usage {
  if (!isObject(usage)) return {};
  const u = usage as AnthropicUsage;
  const hasInput = typeof u.input_tokens === 'number';
  return usageOf(
    hasInput ? count(u.input_tokens) + count(u.cache_creation_input_tokens) + count(u.cache_read_input_tokens) : undefined,
    typeof u.output_tokens === 'number' ? u.output_tokens : undefined,
  );
}

export interface AnthropicParseOptions {
  readonly requestedModel: string;
  /** The forced tool that carries a structured answer (see `buildAnthropicRequest`). */
  readonly responseTool?: string;
  /** Warnings from building the request, carried into the result. */
  readonly requestWarnings?: readonly Warning[];
}

/**
 * Turns a 2xx Messages body (already redacted) into a `GenerateResult`: `text` blocks are
 * concatenated, `tool_use` blocks become tool calls whose `rawArguments` is the input object
 * serialized (the API sends parsed JSON, never text), other blocks (thinking…) are skipped.
 * A `refusal` stop is an answer, not an error: finish reason `content-filter` and a warning.
 * A body that is not JSON or has no `content` array is a `bad-response` error.
 */
export function parseAnthropicResponse(bodyText: string, status: number, options: AnthropicParseOptions): GenerateResult {
  const body = parseJsonObjectBody(bodyText, status);
  const response = body as AnthropicResponse;
  if (!Array.isArray(response.content)) throw badResponse(status, bodyText, 'has no content array');

  const warnings: Warning[] = [...(options.requestWarnings ?? [])];
  let text = '';
  const toolCalls: ToolCall[] = [];
  let structured: string | undefined;
  response.content.forEach((block: unknown, i: number) => {
    if (!isObject(block)) return;
    if (block.type === 'text' && typeof block.text === 'string') {
      text += block.text;
    } else if (block.type === 'tool_use') {
      const id = typeof block.id === 'string' && block.id !== '' ? block.id : `toolu_${i}`;
      const name = typeof block.name === 'string' ? block.name : '';
      const raw = block.input === undefined ? '' : JSON.stringify(block.input);
      if (options.responseTool !== undefined && name === options.responseTool && structured === undefined) structured = raw;
      else toolCalls.push(toolCallFromRaw(id, name, raw));
    }
  });

  const raw = typeof response.stop_reason === 'string' ? response.stop_reason : undefined;
  let unified = mapAnthropicStopReason(raw);
  if (structured !== undefined) {
    // The forced tool's input *is* the answer: a normal stop, not a tool call.
    text = structured;
    if (unified === 'tool-calls') unified = 'stop';
  }
  if (raw === 'refusal') warnings.push({ type: 'other', feature: 'refusal', details: text === '' ? 'the model refused (stop_reason "refusal")' : text.slice(0, 500) });
  return {
    text,
    toolCalls,
    finishReason: raw === undefined ? { unified } : { unified, raw },
    usage: readUsage(response.usage),
    warnings,
    rawResponse: body,
    ...(typeof response.model === 'string' && response.model !== options.requestedModel ? { responseModel: response.model } : {}),
  };
}
