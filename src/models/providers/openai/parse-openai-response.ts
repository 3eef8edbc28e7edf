import { usageOf, isJsonObject as isObject, toolCallFromRaw, type GenerateResult, type ToolCall, type Usage, type Warning } from '../../../core/index.js';
import type { OpenAIChatResponse, OpenAIResponseChoice, OpenAIResponseMessage, OpenAIUsage } from './openai-api-types.js';
import { mapOpenAIFinishReason } from './map-finish-reason.js';
import { badResponse, parseJsonObjectBody } from '../../http/call-errors.js';

/** `content` is usually a string; some servers send an array of `{type:'text', text}` parts. */
function readContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    let text = '';
    for (const part of content) if (isObject(part) && typeof part.text === 'string') text += part.text;
    return text;
  }
  return '';
}

/** Argument text as the model wrote it; servers that send an object instead get it serialized (with a warning). */
function readArguments(value: unknown, warnings: Warning[]): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  warnings.push({ type: 'compatibility', feature: 'tool-call-arguments', details: 'server sent tool arguments as JSON, not as a string; re-serialized' });
  return JSON.stringify(value);
}

function readToolCalls(message: OpenAIResponseMessage, warnings: Warning[]): ToolCall[] {
  const calls: ToolCall[] = [];
  if (Array.isArray(message.tool_calls)) {
    message.tool_calls.forEach((entry: unknown, i: number) => {
      if (!isObject(entry)) return;
      const fn = isObject(entry.function) ? entry.function : {};
      const id = typeof entry.id === 'string' && entry.id !== '' ? entry.id : `call_${i}`;
      const name = typeof fn.name === 'string' ? fn.name : '';
      calls.push(toolCallFromRaw(id, name, readArguments(fn.arguments, warnings)));
    });
  } else if (isObject(message.function_call)) {
    const fn = message.function_call;
    calls.push(toolCallFromRaw('call_0', typeof fn.name === 'string' ? fn.name : '', readArguments(fn.arguments, warnings)));
  }
  return calls;
}

function readUsage(usage: unknown): Usage {
  if (!isObject(usage)) return {};
  const { prompt_tokens: input, completion_tokens: output } = usage as OpenAIUsage;
  return usageOf(typeof input === 'number' ? input : undefined, typeof output === 'number' ? output : undefined);
}

/**
 * Turns a 2xx chat-completions body (already redacted) into a `GenerateResult`. Malformed tool
 * arguments are data (`parseError`), never an exception; a body that is not JSON or has no
 * `choices[0].message` is a `bad-response` error.
 */
export function parseOpenAIResponse(bodyText: string, status: number, requestedModel: string): GenerateResult {
  const body = parseJsonObjectBody(bodyText, status);
  const response = body as OpenAIChatResponse;
  const choice: unknown = Array.isArray(response.choices) ? response.choices[0] : undefined;
  const message: unknown = isObject(choice) ? (choice as OpenAIResponseChoice).message : undefined;
  if (!isObject(message)) throw badResponse(status, bodyText, 'has no choices[0].message');

  const wire = message as OpenAIResponseMessage;
  const warnings: Warning[] = [];
  const toolCalls = readToolCalls(wire, warnings);
  if (typeof wire.refusal === 'string' && wire.refusal !== '') {
    warnings.push({ type: 'other', feature: 'refusal', details: wire.refusal });
  }
  const rawFinish = (choice as OpenAIResponseChoice).finish_reason;
  const raw = typeof rawFinish === 'string' ? rawFinish : undefined;
  const finishReason = raw === undefined ? { unified: mapOpenAIFinishReason(raw) } : { unified: mapOpenAIFinishReason(raw), raw };
  const result: GenerateResult = {
    text: readContent(wire.content),
    toolCalls,
    finishReason,
    usage: readUsage(response.usage),
    warnings,
    rawResponse: body,
    ...(typeof response.model === 'string' && response.model !== requestedModel ? { responseModel: response.model } : {}),
  };
  return result;
}
